import ArgumentParser
import Foundation
import Harness
import Synchronization

extension Rehearse {
    /// `rehearse load <scenario>`: a scenario's load profile under a k6 executor, on the real
    /// runtime (wall clock) or, with `--virtual`, on the simulator (virtual time, by seed).
    struct LoadCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load",
            abstract: "Run a scenario's load profile under a k6 executor (wall clock, or --virtual) and write its report.",
            discussion: """
                Open model (constant-arrival-rate: --rate R/s --duration D; ramping-arrival-rate: --rate R/s \
                --ramp-to R2/s --duration D, or --rate R/s --stages '30s:100,1m:500'): arrivals at their scheduled \
                instants, latency from the intended start, an arrival that finds --max-vus iterations running is \
                dropped. Closed model (constant-vus: --vus N --duration D; ramping-vus: --vus N --stages \
                '30s:10,1m:50'): each virtual user loops iteration → --think-time. --virtual runs it on the \
                simulator: 10 virtual minutes in seconds, the same report for the same --seed. \
                Profiles: \(LoadRunner.profiledScenarios.joined(separator: ", ")). Exit status: 0 passed; 1 failed (a \
                threshold, abandoned iterations, a server problem found at the end); 2 bad input; 3 the real server \
                stopped answering mid-run (the run stopped there; its report is written, marked incomplete).
                """)

        @Argument(help: "Scenario with a load profile (\(LoadRunner.profiledScenarios.joined(separator: ", "))).")
        var scenario: String
        @OptionGroup var options: LoadOptions
        @Option(name: .long, parsing: .unconditional, help: "Domain variant under load (default: the careful design).")
        var variant: String?
        @Option(name: .long, parsing: .unconditional, help: "Folder for reports.")
        var reportDir: String = "reports"
        @Flag(name: .long, help: "Print only the verdict line.")
        var quiet = false

        func run() throws {
            try ReportDirectory.check(reportDir)
            var request = try options.request(scenario: scenario, variant: variant)
            let choice = try LoadProfile.named(request.scenario).flatMap { try options.serverChoice(for: $0) }
            request.backend = choice?.name
            let server = try choice.map { try Self.start($0) }
            if !quiet {
                print("\(ScenarioRegistry.commandName) load \(request.scenario) \(request.modelDescription) on \(Self.where(request))")
                if let server { print("  against \(server.name)") }
                if let profile = LoadProfile.named(request.scenario) { print("  set-up (not timed): \(profile.users) users, \(profile.summary)") }
                fflush(nil)
            }
            let started = ContinuousClock.now  // wall clock on purpose: printed, never in the report
            let report = Self.execute(request, server: server)
            if let server { BlockingWait.run { await server.stop() } }
            let folder = try ReportWriter.write(report, trace: [], to: reportDir)
            if !quiet {
                if let setup = report.load?.setupNanoseconds { print("  set-up took \(ReportFormat.duration(setup)) wall before the first arrival") }
                Self.printSummary(report)
                if request.clock == .virtual {
                    print("  simulated in \(String(format: "%.2f", Double((ContinuousClock.now - started).components.seconds) + Double((ContinuousClock.now - started).components.attoseconds) / 1e18)) s wall, \(report.steps) steps, trace \(report.traceHash)")
                }
            }
            if let failure = report.failure, failure.kind == .server {
                print("INCOMPLETE \(report.runId): \(failure.message)")
                print("  report: \(folder)/report.md")
                throw ExitCode(3)
            }
            if let failure = report.failure {
                print("FAIL \(report.runId): \(failure.kind): \(failure.message)")
                print("  report: \(folder)/report.md")
                if request.clock == .virtual { print("  replay: \(report.replayCommand)") }
                throw ExitCode(1)
            }
            print("PASS \(report.runId) (\(request.clock.rawValue) clock, \(report.load?.iterationsCompleted ?? 0) iterations) report: \(folder)/report.md")
        }

        static func `where`(_ request: LoadRequest) -> String {
            request.clock == .virtual ? "the simulator (virtual time, seed \(request.seed))" : "\(ProcessInfo.processInfo.activeProcessorCount) cores (wall clock)"
        }

        /// Starts the real server `choice` names; a failure is one line, exit 2, before any load.
        static func start(_ choice: (name: String, address: String?, options: [String: String])) throws -> any LoadServer {
            guard let starter = LoadServers.starter(choice.name) else { throw InputError.fail("no server named \(choice.name)") }
            let result = Mutex<Result<any LoadServer, LoadServerError>?>(nil)
            BlockingWait.run {
                do throws(LoadServerError) {
                    let server = try await starter(choice.address, choice.options)
                    result.withLock { $0 = .success(server) }
                } catch {
                    result.withLock { $0 = .failure(error) }
                }
            }
            switch result.withLock({ $0! }) {
            case .success(let server): return server
            case .failure(let error): throw InputError.fail("--backend \(choice.name): \(error)")
            }
        }

        /// Runs `request` on its clock (against `server` when given) and returns the report.
        static func execute(_ request: LoadRequest, server: (any LoadServer)? = nil) -> RunReport {
            if request.clock == .virtual { return LoadRunner.runVirtual(request) }
            let result = Mutex<RunReport?>(nil)
            BlockingWait.run {
                let report = await LoadRunner.run(request, server: server)
                result.withLock { $0 = report }
            }
            return result.withLock { $0! }
        }

        static func printSummary(_ report: RunReport) {
            for summary in report.latency {
                let errors = report.load?.errors[summary.operation] ?? 0
                print("  \(summary.operation): n=\(summary.count) failed=\(errors) p50=\(ReportFormat.duration(summary.p50Nanoseconds)) p99=\(ReportFormat.duration(summary.p99Nanoseconds)) max=\(ReportFormat.duration(summary.maxNanoseconds))")
            }
            print("  \(report.outcomeDetail)")
        }
    }
}
