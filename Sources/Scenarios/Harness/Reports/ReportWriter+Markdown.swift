extension ReportWriter {
    /// The report as Markdown: verdict, how to replay, checks, latency, thresholds.
    public static func markdown(_ report: RunReport) -> String {
        let lines = markdownSummary(report) + markdownFailure(report) + markdownChecks(report) + markdownLatency(report)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The title and the run's identity, outcome, clock, load and build.
    private static func markdownSummary(_ report: RunReport) -> [String] {
        var lines: [String] = []
        lines.append("# \(report.scenario) — \(report.passed ? "PASS" : "FAIL")")
        lines.append("")
        lines.append("- run: `\(report.runId)` (schema \(report.schemaVersion))")
        lines.append("- seed \(report.seed), strategy `\(report.strategy)`, variant `\(report.variant ?? "careful")`")
        let parameters = report.parameters.keys.sorted().map { "\($0)=\(report.parameters[$0]!)" }.joined(separator: " ")
        lines.append("- parameters: \(parameters)")
        lines.append("- outcome: \(report.outcome); \(report.steps) steps, \(ReportFormat.duration(report.virtualNanoseconds)) \(report.clockKind); trace hash `\(report.traceHash)`")
        lines.append("- clock: \(report.clockKind)\(report.clock == .wall ? " (load mode: real runtime, wall-clock latency; not reproducible by seed)" : report.load != nil ? " (load mode on the simulator: reproducible by seed)" : "")")
        if let load = report.load {
            let errors = load.errors.keys.sorted().map { "\($0)=\(load.errors[$0]!)" }.joined(separator: " ")
            lines.append("- load: \(load.description); \(load.iterationsCompleted)/\(load.iterationsStarted) iterations, offered \(String(format: "%.1f", load.achievedRatePerSecond))/s, throughput \(String(format: "%.1f", load.throughputPerSecond))/s on \(load.cores) cores; failed operations: \(errors.isEmpty ? "none" : errors); dropped iterations (max-vus \(load.maxVUs) running): \(load.droppedIterations); peak in flight: \(load.peakInFlight)\(load.setupNanoseconds.map { "; set-up before the first arrival (not timed): \(ReportFormat.duration($0))" } ?? "")")
            lines.append("- backend: \(load.server ?? "the simulated Firebase (the profile's latency model and faults)")")
            for note in load.serverNotes ?? [] { lines.append("  - \(note)") }
            if let stopped = load.stoppedEarlyNanoseconds {
                let when = stopped == 0 ? "during the set-up, so no load ran" : "\(ReportFormat.duration(stopped)) into the load; the run stopped there, and every figure above covers the load until then"
                lines.append("- **incomplete**: the server stopped answering \(when)")
            }
        }
        lines.append("- build: \(report.build.compiler) \(report.build.configuration) @ \(report.build.commit)")
        if !report.notChecked.isEmpty {
            lines.append("- not checked in this run (never evaluated, so this verdict says nothing about them): \(report.notChecked.joined(separator: ", "))")
        }
        return lines
    }

    /// The failure and how to replay it (nothing when the run passed).
    private static func markdownFailure(_ report: RunReport) -> [String] {
        guard let failure = report.failure else { return [] }
        var lines: [String] = []
        lines.append("")
        lines.append("## Failure (\(failure.kind))")
        lines.append("")
        lines.append(failure.message)
        if let violation = report.violation {
            lines.append("")
            lines.append("Check `\(violation.check)` (\(violation.kind.rawValue)) failed at step \(violation.step), virtual time \(ReportFormat.duration(violation.virtualNanoseconds)).")
        }
        lines.append("")
        lines.append("Replay: `\(report.replayCommand)` or `\(ScenarioRegistry.commandName) replay <this report.json>`")
        return lines
    }

    /// The checks table.
    private static func markdownChecks(_ report: RunReport) -> [String] {
        var lines: [String] = []
        lines.append("")
        lines.append("## Checks")
        lines.append("")
        lines.append("| check | kind | status | observations | asserts |")
        lines.append("| --- | --- | --- | ---: | --- |")
        for check in report.checks {
            lines.append("| \(check.name) | \(check.kind.rawValue) | \(check.status)\(check.unreachableReason.map { " (\($0))" } ?? "") | \(check.observations) | \(check.summary) |")
        }
        return lines
    }

    /// The latency table, the thresholds and each operation's percentile spectrum.
    private static func markdownLatency(_ report: RunReport) -> [String] {
        var lines: [String] = []
        lines.append("")
        lines.append("## Latency (\(report.clockKind) time, from intended start)")
        lines.append("")
        lines.append("| operation | count | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | slowest (seed/step/user) |")
        lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for summary in report.latency {
            let slowest = summary.exemplars.last.map { "\($0.seed)/\($0.step)/\($0.user)" } ?? ""
            lines.append("| \(summary.operation) | \(summary.count) | \(ReportFormat.milliseconds(summary.p50Nanoseconds)) | \(ReportFormat.milliseconds(summary.p90Nanoseconds)) | \(ReportFormat.milliseconds(summary.p99Nanoseconds)) | \(ReportFormat.milliseconds(summary.p999Nanoseconds)) | \(ReportFormat.milliseconds(summary.maxNanoseconds)) | \(slowest) |")
        }
        if !report.thresholds.isEmpty {
            lines.append("")
            lines.append("## Thresholds")
            lines.append("")
            for threshold in report.thresholds {
                let observed = threshold.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
                lines.append("- `\(threshold.expression)`: \(threshold.passed ? "met" : "MISSED") (observed \(observed))")
            }
        }
        for summary in report.latency {
            lines.append("")
            lines.append("### \(summary.operation): percentile spectrum (ms)")
            lines.append("")
            lines.append("```")
            lines.append(summary.spectrum.trimmingCharacters(in: .newlines))
            lines.append("```")
        }
        return lines
    }
}

import Foundation
