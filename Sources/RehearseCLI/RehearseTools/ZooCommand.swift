import ArgumentParser
import FirebaseHarness
import Foundation
import Harness
import RehearseCLI
import Scenarios
import Sim
import SimulatedFirebase

extension Rehearse {
    /// `rehearse zoo`: per planted bug, seeds to the first failure with random and with PCT, and
    /// the size of the shrunk case (preemptions, events in its story).
    struct ZooCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "zoo", abstract: "Measure how fast each planted bug is found and how small it shrinks.")

        @Option(name: .long, parsing: .unconditional, help: "Seeds run per bug and strategy (hits are scaled to 1,000 seeds).")
        var seeds: Int = 200
        @Option(name: .long, parsing: .unconditional, help: "Runs the shrinker may spend per bug.")
        var shrinkRuns: Int = 120
        @Option(name: .long, parsing: .unconditional, help: "Threads running seeds.")
        var jobs: Int = SimulationPool.processorCount
        @Option(name: .long, parsing: .singleValue, help: "Only this bug, by its variant (repeatable; `rehearse list` names the variants).", transform: ArgumentValue.bug)
        var bug: [BugZoo.Bug] = []
        @Option(name: .long, parsing: .unconditional, help: "Also write the table as JSON here.")
        var output: String?
        @Option(name: .long, parsing: .singleValue, help: "Compare these strategies instead of random, pct:2, pct:3 and portfolio (repeatable), e.g. nonpreemptive.", transform: ArgumentValue.strategy)
        var strategy: [SchedulingStrategy] = []
        @Flag(name: .long, help: "Instead: compare how fuzz's worlds find each bug (default world, world swarm, guided; portfolio, faults swarmed, no bug parameters).")
        var worlds = false

        func run() throws {
            try Limits.check(seeds, in: Limits.zooSeeds, option: "--seeds", limit: "zooSeeds")
            try Limits.check(shrinkRuns, in: Limits.shrinkRuns, option: "--shrink-runs", limit: "shrinkRuns")
            try Limits.check(jobs, in: Limits.jobs, option: "--jobs", limit: "jobs")
            if let output {
                guard !output.isEmpty else { throw InputError.fail("--output is empty") }
                do { try AtomicFile.refuseUnusualTarget(output) } catch { throw InputError.fail("--output: \(error.description)") }
            }
            let selected = BugZoo.bugs.filter { bug.isEmpty || bug.contains($0) }
            let strategies = strategy.isEmpty ? BugZoo.strategies : strategy
            if worlds { return try compareWorlds(selected) }
            let strategyNames = strategies.map(\.description)
            print("zoo: \(seeds) seeds per bug and strategy, no swarm; per strategy: first failing seed / hits per 1,000 seeds")
            print((["bug", "app", "needs"] + strategyNames + ["shrunk decisions (before)", "story lines", "check"]).joined(separator: " | "))
            var measurements: [BugZoo.Measurement] = []
            for entry in selected {
                let m = try BugZoo.measure(entry, seeds: seeds, shrinkRuns: shrinkRuns, strategies: strategies, threads: jobs)
                measurements.append(m)
                let cells = m.results.map { result in
                    "\(result.firstFailure.map(String.init) ?? ">\(seeds)") / \(String(format: "%.0f", result.hitsPerThousand))"
                }
                print(([m.variant, m.app, m.needs] + cells + [
                    "\(m.shrunkPreemptions.map(String.init) ?? "-") (\(m.preemptionsBefore.map(String.init) ?? "-"))",
                    m.storyEvents.map(String.init) ?? "-", m.check ?? "-",
                ]).joined(separator: " | "))
                fflush(nil)
            }
            let found = measurements.filter { $0.results.contains { $0.hits > 0 } }.count
            let portfolio = measurements.compactMap { $0.result("portfolio")?.firstFailure }.sorted()
            let median = portfolio.isEmpty ? nil : portfolio[portfolio.count / 2]
            print("found \(found)/\(measurements.count); portfolio found \(portfolio.count), median seeds to failure \(median.map(String.init) ?? "-"), worst \(portfolio.last.map(String.init) ?? "-"); longest story \(measurements.compactMap(\.storyEvents).max() ?? 0) lines")
            if let output {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                StaleTemporaryFiles.clean(beside: output)
                try AtomicFile.write(String(decoding: try encoder.encode(measurements), as: UTF8.self) + "\n", to: output)
            }
            if found < measurements.count { throw ExitCode(1) }
        }

        /// The worlds table: per bug, first failing seed / hits per 1,000 seeds for each world mode.
        func compareWorlds(_ selected: [BugZoo.Bug]) throws {
            print("zoo --worlds: \(seeds) seeds per bug and world, as fuzz runs them (portfolio, faults swarmed, no bug parameters); first failing seed / hits per 1,000 seeds")
            print("bug | app | needs | default world | world swarm | guided")
            var comparisons: [BugZoo.WorldComparison] = []
            for entry in selected {
                let comparison = try BugZoo.compareWorlds(entry, seeds: seeds, threads: jobs)
                comparisons.append(comparison)
                let cells = comparison.results.map { "\($0.firstFailure.map(String.init) ?? ">\(seeds)") / \(String(format: "%.0f", $0.hitsPerThousand))" }
                print(([entry.variant, entry.app, entry.needs] + cells).joined(separator: " | "))
                fflush(nil)
            }
            for (index, mode) in ["default world", "world swarm", "guided"].enumerated() {
                let found = comparisons.compactMap { $0.results[index].firstFailure }.sorted()
                print("\(mode): found \(found.count)/\(comparisons.count), median first failing seed \(found.isEmpty ? "-" : String(found[found.count / 2])), worst \(found.last.map(String.init) ?? "-")")
            }
            if let output {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                StaleTemporaryFiles.clean(beside: output)
                try AtomicFile.write(String(decoding: try encoder.encode(comparisons), as: UTF8.self) + "\n", to: output)
            }
        }
    }
}
