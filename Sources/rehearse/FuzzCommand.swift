import ArgumentParser
import Dispatch
import Foundation
import Scenarios
import Synchronization

extension Rehearse {
    /// `rehearse fuzz <scenario> --seeds A..<B`: a sweep; one failure artifact per failing seed,
    /// Sometimes goals checked across the sweep.
    struct FuzzCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "fuzz", abstract: "Run a scenario over a range of seeds.")

        @Argument(help: "Scenario name.")
        var scenario: String
        @Option(name: .long, help: "Seed range A..<B.")
        var seeds: String
        @Option(name: .long, help: "Simulations run in parallel (one thread each).")
        var jobs: Int = 1
        @Flag(name: .long, help: "Go on after the first failure.")
        var keepGoing = false
        @OptionGroup var options: RunOptions

        func run() throws {
            let parts = seeds.components(separatedBy: "..<")
            guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]), low < high,
                  high - low <= UInt64(ScenarioLimits.maxSweepSeeds) else {
                throw InputError.fail(ScenarioError.malformedSeedRange(seeds).description)
            }
            guard jobs >= 1, jobs <= 64 else { throw InputError.fail("--jobs \(jobs) must be in 1...64") }
            let template = try options.request(scenario: scenario, seed: low)
            let seedList = Array(low..<high)
            struct Shared { var next = 0; var done = 0; var failed = 0; var stop = false; var reports: [UInt64: RunReport] = [:]; var errors: [String] = [] }
            let shared = Mutex(Shared())
            let showProgress = FileHandleOutput.standardErrorIsTerminal && !options.quiet
            let keepGoing = self.keepGoing
            let reportDir = options.reportDir
            DispatchQueue.concurrentPerform(iterations: min(jobs, seedList.count)) { _ in
                while true {
                    let index: Int? = shared.withLock { state in
                        guard !state.stop, state.next < seedList.count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let index else { return }
                    var request = template
                    request.seed = seedList[index]
                    do {
                        let (report, _) = try ScenarioRunner.run(request)
                        if !report.passed {
                            try ReportWriter.writeJSON(report, to: try Self.failureFolder(reportDir, report) + "/\(report.runId).json")
                        }
                        let (done, failed) = shared.withLock { state in
                            state.reports[report.seed] = report
                            state.done += 1
                            if !report.passed { state.failed += 1; if !keepGoing { state.stop = true } }
                            return (state.done, state.failed)
                        }
                        if showProgress {
                            let width = 30, filled = width * done / seedList.count
                            FileHandle.standardError.write(Data("\r[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(done)/\(seedList.count) failures: \(failed)".utf8))
                        }
                    } catch {
                        shared.withLock { $0.errors.append("\(error)"); $0.stop = true }
                    }
                }
            }
            if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
            let state = shared.withLock { $0 }
            if let error = state.errors.first { throw InputError.fail(error) }
            let reports = state.reports.keys.sorted().map { state.reports[$0]! }
            var failures = 0
            for report in reports where !report.passed {
                failures += 1
                print("FAIL seed \(report.seed): \(report.failure!.message)")
                print("  replay: rehearse replay \(try Self.failureFolder(reportDir, report))/\(report.runId).json")
            }
            var unreached: [String] = []
            if let first = reports.first {
                for check in first.checks where check.kind == .sometimes {
                    if !reports.contains(where: { $0.checks.contains { $0.name == check.name && $0.status == "reached" } }) { unreached.append(check.name) }
                }
            }
            print("\(reports.count) seeds run, \(reports.count - failures) passed, \(failures) failed\(unreached.isEmpty ? "" : "; Sometimes goals never reached: \(unreached.joined(separator: ", "))")")
            if failures > 0 || !unreached.isEmpty { throw ExitCode(1) }
        }

        static func failureFolder(_ root: String, _ report: RunReport) throws -> String {
            let folder = "\(root)/\(report.scenario)/failures"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            return folder
        }
    }
}
