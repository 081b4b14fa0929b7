import ArgumentParser
import Foundation
import Harness

extension Rehearse {
    /// Hidden: `rehearse fuzz-worker`, the child process of `fuzz` that runs seeds `A, A+stride, …
    /// < B` and reports each on stdout (`start <seed>`, `result <json>`).
    struct FuzzWorkerCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fuzz-worker", abstract: "Run seeds for fuzz (internal).", shouldDisplay: false)

        @Argument var scenario: String
        @Option(name: .long, parsing: .unconditional, transform: ArgumentValue.seedRange) var seeds: SeedRange
        @Option(name: .long, parsing: .unconditional) var stride: Int = 1
        @Flag(inversion: .prefixedNo) var swarm = true
        @Option(name: .long, parsing: .unconditional, transform: ArgumentValue.worldMode) var world: WorldMode = .default
        @Option(name: .long, parsing: .unconditional) var worlds: String?
        @Option(name: .long, parsing: .unconditional) var determinismEvery: Int = SweepRunner.defaultDeterminismEvery
        @Option(name: .long, parsing: .unconditional) var failureDir: String
        @OptionGroup var options: RunOptions

        func run() throws {
            let range = seeds
            try Limits.check(stride, in: Limits.jobs, option: "--stride", limit: "jobs")
            try Limits.check(determinismEvery, in: Limits.determinismEvery, option: "--determinism-every", limit: "determinismEvery")
            guard !failureDir.isEmpty else { throw InputError.fail("--failure-dir is empty") }
            var runner = SweepRunner(
                prepared: try options.prepared(scenario: scenario, seed: range.low, defaultStrategy: .portfolio), swarm: swarm,
                determinismEvery: determinismEvery, failureDirectory: failureDir)
            runner.world = world
            if let worlds {
                let chosen: [ChosenWorld]
                do { chosen = try InputFile.decode([ChosenWorld].self, from: try InputFile.read(worlds), path: worlds, what: "guided worlds") } catch {
                    throw InputError.fail(error.description)
                }
                runner.chosenWorlds = Dictionary(chosen.map { ($0.seed, $0.world) }) { first, _ in first }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            // Stepped by hand: a stride past UInt64.max must end the loop, not trap.
            var next: UInt64? = range.low
            while let seed = next, seed < range.high {
                let (following, overflow) = seed.addingReportingOverflow(UInt64(stride))
                next = overflow ? nil : following
                print("start \(seed)")
                fflush(nil)
                let (result, _) = runner.run(seed: seed)
                print("result " + String(decoding: try encoder.encode(result), as: UTF8.self))
                fflush(nil)
            }
        }
    }
}
