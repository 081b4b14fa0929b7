import ArgumentParser
import Harness

/// Prints a run's verdict and maps it to the exit code (0 pass, 1 failure).
enum Verdict {
    static func print(_ report: RunReport, folder: String, quiet: Bool) throws {
        if !quiet {
            for summary in report.latency {
                Swift.print("  \(summary.operation): n=\(summary.count) p50=\(ReportFormat.duration(summary.p50Nanoseconds)) p99=\(ReportFormat.duration(summary.p99Nanoseconds)) max=\(ReportFormat.duration(summary.maxNanoseconds))")
            }
        }
        if let failure = report.failure {
            Swift.print("FAIL \(report.runId): \(failure.kind): \(failure.message)")
            Swift.print("  report: \(folder)/report.md")
            Swift.print("  replay: \(ScenarioRegistry.commandName) replay \(folder)/report.json   (or: \(report.replayCommand))")
            throw ExitCode(1)
        }
        Swift.print("PASS \(report.runId) (\(report.steps) steps, trace \(report.traceHash)) report: \(folder)/report.md")
        // A pass that never exercised a check is weaker than it looks: say which.
        if !report.notChecked.isEmpty {
            Swift.print("  not checked in this run (never evaluated): \(report.notChecked.joined(separator: ", "))")
        }
    }
}
