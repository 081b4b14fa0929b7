import ArgumentParser
import Foundation
import Scenarios
import Synchronization

extension Rehearse {
    /// `rehearse load <scenario>`: a scenario's load profile on the real runtime, wall-clock latency.
    struct LoadCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load",
            abstract: "Run a scenario's load profile on the real Swift runtime (wall clock) and write its report.",
            discussion: """
                Open model: --rate R/s [--ramp-to R2/s], arrivals at their scheduled instants, latency from the \
                intended start (no coordinated omission). Closed model: --vus N [--think-time T], each virtual \
                user loops operation → think time. Profiles: \(LoadRunner.profiledScenarios.joined(separator: ", ")).
                """)

        @Argument(help: "Scenario with a load profile (\(LoadRunner.profiledScenarios.joined(separator: ", "))).")
        var scenario: String
        @Option(name: .long, parsing: .unconditional, help: "Open model: arrivals per second, e.g. 50/s, 50, 600/m.")
        var rate: String?
        @Option(name: .customLong("ramp-to"), parsing: .unconditional, help: "Open model: ramp the rate linearly to this by the end, e.g. 200/s.")
        var rampTo: String?
        @Option(name: .long, parsing: .unconditional, help: "Closed model: virtual users, each looping operation → think time.")
        var vus: Int?
        @Option(name: .customLong("think-time"), parsing: .unconditional, help: "Closed model: pause after each operation, e.g. 100ms (default 0).")
        var thinkTime: String?
        @Option(name: .long, parsing: .unconditional, help: "How long arrivals keep coming, e.g. 10s, 500ms, 2m.")
        var duration: String
        @Option(name: .customLong("max-in-flight"), parsing: .unconditional, help: "Open model: bound on iterations running at once (arrivals beyond it wait).")
        var maxInFlight: Int = 10_000
        @Option(name: .long, parsing: .unconditional, help: "Seed of the domain's randomness (fault draws); the run is not reproducible.", transform: Limits.seed)
        var seed: UInt64 = 1
        @Option(name: .long, parsing: .unconditional, help: "Folder for reports.")
        var reportDir: String = "reports"
        @Option(name: .long, parsing: .singleValue, help: "Latency threshold such as placeBid.p99<2s (repeatable).")
        var threshold: [String] = []
        @Flag(name: .long, help: "Print only the verdict line.")
        var quiet = false

        func run() throws {
            let request = try makeRequest()
            if !quiet { print("rehearse load \(request.scenario) \(request.model) duration=\(request.duration) on \(ProcessInfo.processInfo.activeProcessorCount) cores") }
            let result = Mutex<RunReport?>(nil)
            KernelBenchmarks.blockingWait {
                let report = await LoadRunner.run(request)
                result.withLock { $0 = report }
            }
            let report = result.withLock { $0! }
            let folder = try ReportWriter.write(report, trace: [], to: reportDir)
            if !quiet {
                for summary in report.latency {
                    let errors = report.load?.errors[summary.operation] ?? 0
                    print("  \(summary.operation): n=\(summary.count) failed=\(errors) p50=\(ReportFormat.duration(summary.p50Nanoseconds)) p99=\(ReportFormat.duration(summary.p99Nanoseconds)) max=\(ReportFormat.duration(summary.maxNanoseconds))")
                }
                print("  \(report.outcomeDetail)")
            }
            if let failure = report.failure {
                print("FAIL \(report.runId): \(failure.kind): \(failure.message)")
                print("  report: \(folder)/report.md")
                throw ExitCode(1)
            }
            print("PASS \(report.runId) (wall clock, \(report.steps) iterations) report: \(folder)/report.md")
        }

        /// The validated request (bad input → exit 2 with one line).
        func makeRequest() throws -> LoadRequest {
            try ReportDirectory.check(reportDir)
            do { _ = try ScenarioRegistry.scenario(named: scenario) } catch { throw InputError.fail(error.description) }
            guard LoadProfile.named(scenario) != nil else {
                throw InputError.fail("scenario \(scenario) has no load profile; load mode supports: \(LoadRunner.profiledScenarios.joined(separator: ", "))")
            }
            guard let duration = Self.parseDuration(duration), duration > .zero, duration <= .seconds(24 * 3600) else {
                throw InputError.fail("--duration '\(self.duration)' must be a positive duration up to 24h with unit ms, s, m or h (e.g. 10s)")
            }
            let model: LoadRequest.Model
            switch (rate, vus) {
            case (nil, nil): throw InputError.fail("give --rate R/s (open model) or --vus N (closed model)")
            case (.some, .some): throw InputError.fail("--rate (open model) and --vus (closed model) exclude each other")
            case (let rateText?, nil):
                guard thinkTime == nil else { throw InputError.fail("--think-time belongs to the closed model (--vus)") }
                let rate = try Self.parseRate(rateText, option: "--rate")
                let ramp = try rampTo.map { try Self.parseRate($0, option: "--ramp-to") }
                model = .open(rate: rate, rampTo: ramp)
            case (nil, let users?):
                guard rampTo == nil else { throw InputError.fail("--ramp-to belongs to the open model (--rate)") }
                try Limits.check(users, in: Limits.loadUsers, option: "--vus", limit: "loadUsers")
                var think = Duration.zero
                if let thinkTime {
                    guard let parsed = Self.parseDuration(thinkTime), parsed >= .zero, parsed <= .seconds(3600) else {
                        throw InputError.fail("--think-time '\(thinkTime)' must be a duration up to 1h with unit ms, s, m or h (e.g. 100ms)")
                    }
                    think = parsed
                }
                model = .closed(users: users, thinkTime: think)
            }
            try Limits.check(maxInFlight, in: Limits.loadInFlight, option: "--max-in-flight", limit: "loadInFlight")
            let thresholds: [Threshold]
            do { thresholds = try threshold.map { (text: String) throws(ScenarioError) in try Threshold(parsing: text) } } catch {
                throw InputError.fail(error.description)
            }
            let operations = LoadProfile.named(scenario)?.operations ?? []
            for threshold in thresholds where !operations.contains(threshold.operation) {
                throw InputError.fail("threshold '\(threshold.expression)' names no operation of \(scenario)'s load profile; operations: \(operations.joined(separator: ", "))")
            }
            let commandLine = (["rehearse"] + CommandLine.arguments.dropFirst()).joined(separator: " ")
            return LoadRequest(
                scenario: scenario, model: model, duration: duration, thresholds: thresholds, seed: seed, maxInFlight: maxInFlight,
                gitCommit: Fingerprint.current.commit, commandLine: commandLine)
        }

        /// `50`, `50/s`, `600/m`, `0.5/s` → arrivals per second (0 < rate ≤ 100000/s).
        static func parseRate(_ text: String, option: String) throws -> Double {
            var number = Substring(text), per = 1.0
            if let slash = text.firstIndex(of: "/") {
                number = text[..<slash]
                switch text[text.index(after: slash)...] {
                case "s": per = 1
                case "m": per = 60
                case "h": per = 3600
                default: number = ""
                }
            }
            guard let value = Double(number), value.isFinite, value > 0, value / per <= 100_000 else {
                throw InputError.fail("\(option) '\(text)' must be a positive rate up to 100000/s, like 50/s or 600/m")
            }
            return value / per
        }

        /// `500ms`, `10s`, `2m`, `1h`, `250us`; a bare number is seconds.
        static func parseDuration(_ text: String) -> Duration? {
            let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
            var number = text, scale = 1e9
            for (suffix, factor) in units where text.hasSuffix(suffix) {
                let candidate = String(text.dropLast(suffix.count))
                if Double(candidate) != nil { number = candidate; scale = factor; break }
            }
            guard let value = Double(number), value.isFinite, value >= 0, value * scale < 1e18 else { return nil }
            return .nanoseconds(Int64(value * scale))
        }
    }
}
