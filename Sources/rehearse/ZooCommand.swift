import ArgumentParser
import Foundation
import Scenarios
import Sim

extension Rehearse {
    /// `rehearse zoo`: per planted bug, seeds to the first failure with random and with PCT, and
    /// the size of the shrunk case (preemptions, events in its story).
    struct ZooCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "zoo", abstract: "Measure how fast each planted bug is found and how small it shrinks.")

        @Option(name: .long, parsing: .unconditional, help: "Seeds tried per bug and strategy.")
        var maxSeeds: Int = 200
        @Option(name: .long, parsing: .unconditional, help: "Runs the shrinker may spend per bug.")
        var shrinkRuns: Int = 120
        @Option(name: .long, parsing: .singleValue, help: "Only this bug (repeatable).")
        var bug: [String] = []
        @Option(name: .long, parsing: .unconditional, help: "Also write the table as JSON here.")
        var output: String?

        func run() throws {
            try Limits.check(maxSeeds, in: Limits.zooSeeds, option: "--max-seeds", limit: "zooSeeds")
            try Limits.check(shrinkRuns, in: Limits.shrinkRuns, option: "--shrink-runs", limit: "shrinkRuns")
            if let output {
                guard !output.isEmpty else { throw InputError.fail("--output is empty") }
                do { try AtomicFile.refuseUnusualTarget(output) } catch { throw InputError.fail("--output: \(error.description)") }
            }
            let names = BugZoo.bugs.map(\.variant)
            for name in bug where !names.contains(name) { throw InputError.fail("unknown bug '\(name)'; valid: \(names.joined(separator: ", "))") }
            let selected = BugZoo.bugs.filter { bug.isEmpty || bug.contains($0.variant) }
            print("bug | app | needs | seeds to failure random | pct:3 | preemptions shrunk (before) | story lines | check")
            var measurements: [BugZoo.Measurement] = []
            for entry in selected {
                let m = try BugZoo.measure(entry, maxSeeds: maxSeeds, shrinkRuns: shrinkRuns)
                measurements.append(m)
                func show(_ value: Int?) -> String { value.map(String.init) ?? ">\(maxSeeds)" }
                print("\(m.variant) | \(m.app) | \(m.needs) | \(show(m.seedsToFailureRandom)) | \(show(m.seedsToFailurePCT)) | \(m.shrunkPreemptions.map(String.init) ?? "-") (\(m.preemptionsBefore.map(String.init) ?? "-")) | \(m.storyEvents.map(String.init) ?? "-") | \(m.check ?? "-")")
                fflush(nil)
            }
            let found = measurements.filter { $0.seedsToFailurePCT != nil || $0.seedsToFailureRandom != nil }.count
            let pct = measurements.compactMap(\.seedsToFailurePCT).sorted()
            let median = pct.isEmpty ? nil : pct[pct.count / 2]
            print("found \(found)/\(measurements.count); median seeds to failure with PCT \(median.map(String.init) ?? "-") (over found); longest story \(measurements.compactMap(\.storyEvents).max() ?? 0) lines")
            if let output {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try AtomicFile.write(String(decoding: try encoder.encode(measurements), as: UTF8.self) + "\n", to: output)
            }
        }
    }
}
