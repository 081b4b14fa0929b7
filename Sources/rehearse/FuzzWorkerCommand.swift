import ArgumentParser
import Foundation
import Scenarios

extension Rehearse {
    /// Hidden: `rehearse fuzz-worker`, the child process of `fuzz` that runs seeds `A, A+stride, …
    /// < B` and reports each on stdout (`start <seed>`, `result <json>`).
    struct FuzzWorkerCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fuzz-worker", abstract: "Run seeds for fuzz (internal).", shouldDisplay: false)

        @Argument var scenario: String
        @Option(name: .long) var seeds: String
        @Option(name: .long) var stride: Int = 1
        @Flag(inversion: .prefixedNo) var swarm = true
        @Option(name: .long) var determinismEvery: Int = SweepRunner.defaultDeterminismEvery
        @Option(name: .long) var failureDir: String
        @OptionGroup var options: RunOptions

        func run() throws {
            let range: SeedRange
            do { range = try SeedRange(parsing: seeds) } catch { throw InputError.fail(error.description) }
            guard stride >= 1 else { throw InputError.fail("--stride \(stride) must be at least 1") }
            let runner = SweepRunner(
                template: try options.request(scenario: scenario, seed: range.low, defaultStrategy: .portfolio), swarm: swarm,
                determinismEvery: determinismEvery, failureDirectory: failureDir)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            for seed in Swift.stride(from: range.low, to: range.high, by: stride) {
                print("start \(seed)")
                fflush(nil)
                let (result, _) = try runner.run(seed: seed)
                print("result " + String(decoding: try encoder.encode(result), as: UTF8.self))
                fflush(nil)
            }
        }
    }
}
