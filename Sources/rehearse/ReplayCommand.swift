import ArgumentParser
import Scenarios

extension Rehearse {
    /// `rehearse replay <failure.json>`: re-runs a report's configuration and checks that the same
    /// violation happens at the same step (exit 1 when it does, like the original run).
    struct ReplayCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "replay", abstract: "Replay a failure artifact or report.json.")

        @Argument(help: "A report.json or failure artifact written by run or fuzz.")
        var artifact: String
        @Option(name: .long, help: "Folder for the replay's report.")
        var reportDir: String = "reports/replays"
        @Flag(name: .long, help: "Also write trace.jsonl.")
        var trace = false

        func run() throws {
            let original: RunReport
            var request: RunRequest
            do {
                original = try ReportWriter.read(artifact)
                request = try ScenarioRunner.request(replaying: original)
                _ = try ScenarioRunner.prepare(request)
            } catch {
                throw InputError.fail(error.description)
            }
            request.recordsTrace = trace
            request.gitCommit = Fingerprint.current.commit
            let (report, events) = try ScenarioRunner.run(request)
            let folder = try ReportWriter.write(report, trace: events, to: reportDir)
            let same = report.violation?.check == original.violation?.check && report.violation?.step == original.violation?.step
                && report.traceHash == original.traceHash
            if same {
                print("reproduced: \(report.violation.map { "\($0.check) at step \($0.step)" } ?? "same outcome") (trace \(report.traceHash))")
            } else {
                print("NOT reproduced: original \(original.violation.map { "\($0.check)@\($0.step)" } ?? "pass") trace \(original.traceHash); replay \(report.violation.map { "\($0.check)@\($0.step)" } ?? "pass") trace \(report.traceHash) (different binary?)")
            }
            try Verdict.print(report, folder: folder, quiet: true)
        }
    }
}
