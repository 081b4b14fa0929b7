import ArgumentParser
import Foundation
import Harness
import Sim

extension Rehearse {
    /// `rehearse replay <failure.json | report.json>`: a failure artifact replays its decisions log
    /// (so shrunk cases reproduce) and must show the same check at the same step; a crash artifact
    /// re-runs its seed in a child process, which must die again. A report.json re-runs its
    /// configuration. Exit 0 when the recorded outcome reproduced (the same check at the same step,
    /// or the same pass with the same trace hash), 1 when it did not (saying what differed), 2 on
    /// bad input. So `rehearse replay X && echo ok` asks "does this still reproduce?".
    struct ReplayCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "replay", abstract: "Replay a failure artifact or report.json.")

        @Argument(help: "A failure artifact (fuzz, shrink) or a report.json (run).")
        var artifact: String
        @Option(name: .long, parsing: .unconditional, help: "Folder for the replay's report.")
        var reportDir: String = "reports/replays"
        @Flag(name: .long, help: "Also write trace.jsonl.")
        var trace = false

        func run() throws {
            try ReportDirectory.check(reportDir)
            let data: Data
            do { data = try InputFile.read(artifact, limit: ScenarioLimits.maxArtifactBytes) } catch { throw InputError.fail(error.description) }
            let failure: FailureArtifact?
            do { failure = try FailureArtifact.decode(data, path: artifact) } catch { throw InputError.fail(error.description) }
            if let failure { return try replay(failure) }
            try replayReport()
        }

        func replay(_ failure: FailureArtifact) throws {
            var request: RunRequest
            do {
                request = try failure.replayRequest(gitCommit: Fingerprint.current.commit)
                _ = try ScenarioRunner.prepare(request)
            } catch { throw InputError.fail("\(artifact): \(error.description)") }
            if failure.build != Fingerprint.current { print("note: recorded on \(failure.build); this is \(Fingerprint.current)") }
            if failure.kind == .crash { return try replayCrash(failure, request) }
            request.recordsTrace = trace
            let execution = try ScenarioRunner.execute(request)
            var report = execution.report
            report.replayOf = ReplaySource(artifact: artifact, shrink: failure.shrink)
            let folder = try ReportWriter.write(report, trace: execution.trace, to: reportDir)
            if let divergence = execution.replayDivergence {
                // Clamping the decision would replay some other schedule and call it this one.
                throw RehearseError.failed("NOT reproduced: \(artifact): \(divergence) (recorded on another binary, or the log was edited); report: \(folder)/report.md")
            }
            let sameCheck = report.violation?.check == failure.violation?.check && report.violation?.step == failure.violation?.step
            let same = failure.violation != nil ? sameCheck : (!report.passed && report.failure?.kind == failure.kind)
            if same {
                print("reproduced: \(failure.expectation)")
                for line in failure.story { print("  \(line)") }
                print("  report: \(folder)/report.md")
                return
            }
            let observed = report.violation.map { "\($0.check) at step \($0.step)" } ?? (report.passed ? "a pass" : "\(report.failure?.kind.rawValue ?? "?"): \(report.failure?.message ?? "")")
            throw RehearseError.failed("NOT reproduced: expected \(failure.expectation), got \(observed) (trace \(report.traceHash); different binary or model?)")
        }

        /// Re-runs a crashed seed in a child `rehearse run`; it must die with the same signal.
        func replayCrash(_ failure: FailureArtifact, _ request: RunRequest) throws {
            // As `replayRequest`: an artifact older than timing windows ran with none.
            let line = failure.identity.commandLine(timingWindowNanoseconds: failure.timingWindowNanoseconds ?? 0)
            let arguments = line.arguments + ["--quiet", "--report-dir", reportDir]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let signaled = process.terminationReason == .uncaughtSignal
            if signaled && (failure.signal == nil || failure.signal == 0 || failure.signal == process.terminationStatus) {
                print("reproduced: crash (signal \(process.terminationStatus)) on seed \(failure.seed)")
                return
            }
            throw RehearseError.failed("NOT reproduced: expected \(failure.expectation), the seed \(signaled ? "died with signal \(process.terminationStatus)" : "exited \(process.terminationStatus)")")
        }

        func replayReport() throws {
            let original: RunReport
            var request: RunRequest
            do {
                original = try ReportWriter.read(artifact)
                request = try ScenarioRunner.request(replaying: original)
                _ = try ScenarioRunner.prepare(request)
            } catch {
                throw InputError.fail(error.description)
            }
            // Said first, as for an artifact: a schedule belongs to one binary.
            if original.build != Fingerprint.current { print("note: recorded on \(original.build); this is \(Fingerprint.current)") }
            request.recordsTrace = trace
            request.gitCommit = Fingerprint.current.commit
            let (report, events) = try ScenarioRunner.run(request)
            let folder = try ReportWriter.write(report, trace: events, to: reportDir)
            let same = report.violation?.check == original.violation?.check && report.violation?.step == original.violation?.step
                && report.traceHash == original.traceHash
            if same {
                print("reproduced: \(report.violation.map { "\($0.check) at step \($0.step)" } ?? (report.passed ? "pass" : "same outcome")) (trace \(report.traceHash))")
                print("  report: \(folder)/report.md")
                return
            }
            throw RehearseError.failed("NOT reproduced: original \(original.violation.map { "\($0.check)@\($0.step)" } ?? "pass") trace \(original.traceHash); replay \(report.violation.map { "\($0.check)@\($0.step)" } ?? "pass") trace \(report.traceHash) (different binary?); report: \(folder)/report.md")
        }
    }
}
