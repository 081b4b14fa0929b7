import ArgumentParser
import Harness
import Sim

extension Rehearse {
    /// `rehearse merge <shard results…>`: one sweep result from the shards of a job array
    /// (histograms added, failures listed), latency thresholds judged over the merged histograms;
    /// exit 1 if any shard failed, a goal was never reached or a threshold is missed.
    struct MergeCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Merge shard results of a sweep, or the report.json files of a sharded load run, into one.",
            discussion: """
                rehearse merge shard-0.json shard-1.json …            # fuzz --shard results: one sweep result
                rehearse merge reports/<scenario>/<run>-shard-*/report.json   # load --shard i/n: one load report
                """)

        @Argument(help: "Shard result JSON files written by fuzz --shard, or report.json files written by load --shard.")
        var results: [String]
        @Option(name: .long, parsing: .unconditional, help: "Load shards: the folder the merged report is written to.")
        var reportDir: String = "reports"
        @Option(name: .long, parsing: .unconditional, help: "Where to write the merged result.")
        var output: String = "reports/merged.json"
        @Option(name: .long, parsing: .singleValue, help: "Latency threshold over the merged sweep such as placeBid.p99<2s (repeatable).", transform: ArgumentValue.threshold)
        var threshold: [Threshold] = []
        @Option(name: .long, parsing: .unconditional, help: "Also write a JUnit XML report here (a test case per check over the merged sweep).")
        var junit: String?

        /// The reports of a sharded load run as one report (exit 1 when a shard failed or a
        /// threshold is missed over the merged numbers).
        func mergeLoad() throws {
            try ReportDirectory.check(reportDir)
            var reports: [RunReport] = []
            for path in results {
                do { reports.append(try ReportWriter.read(path)) } catch { throw InputError.fail("\(path): \(error.description)") }
            }
            let merged: RunReport
            // The shards' own thresholds (the same command's), unless merge is given its own.
            let thresholds = try threshold.isEmpty
                ? reports[0].thresholds.map { result in
                    do { return try ArgumentValue.threshold(result.expression) } catch { throw InputError.fail("\(results[0]): threshold \(result.expression): \(error)") }
                }
                : threshold
            do { merged = try LoadMerge.merge(reports, thresholds: thresholds) } catch { throw InputError.fail(error.description) }
            let folder = try ReportWriter.write(merged, trace: [], to: reportDir)
            Rehearse.LoadCommand.printSummary(merged)
            for verdict in merged.thresholds {
                let observed = verdict.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
                print("threshold \(verdict.expression) over the merged shards: \(verdict.passed ? "met" : "MISSED") (observed \(observed))")
            }
            if let failure = merged.failure {
                print("FAIL \(merged.runId): \(failure.kind): \(failure.message)")
                print("  report: \(folder)/report.md")
                throw ExitCode(1)
            }
            print("PASS \(merged.runId) (\(reports.count) shards, \(merged.load?.iterationsCompleted ?? 0) iterations) report: \(folder)/report.md")
        }

        func run() throws {
            guard !results.isEmpty else { throw InputError.fail("merge needs at least one shard result") }
            guard !output.isEmpty else { throw InputError.fail("--output is empty") }
            do { try AtomicFile.refuseUnusualTarget(output) } catch { throw InputError.fail("--output: \(error.description)") }
            try JUnitOutput.check(junit)
            let thresholds = threshold
            if let first = try? ReportWriter.read(results[0]), LoadMerge.isLoadReport(first) { return try mergeLoad() }
            var shards: [SweepResult] = []
            for path in results {
                do { shards.append(try SweepResult.read(path)) } catch { throw InputError.fail(error.description) }
            }
            // Merged one shard at a time, so a refusal names the file that does not fit.
            var merged = shards[0]
            do { merged = try SweepResult.merge([merged]) } catch { throw InputError.fail("\(results[0]): \(error.description)") }
            for (path, shard) in zip(results, shards).dropFirst() {
                do { merged = try SweepResult.merge([merged, shard]) } catch { throw InputError.fail("\(path): \(error.description)") }
            }
            if !thresholds.isEmpty {
                // The scenario's declared operations (or, for a scenario this build lacks, those the sweep recorded).
                let operations = (try? ScenarioRegistry.scenario(named: merged.scenario).operations) ?? merged.latency.map(\.operation)
                for threshold in thresholds where !operations.contains(threshold.operation) {
                    throw InputError.fail("threshold '\(threshold.expression)' names no operation of \(merged.scenario); operations: \(operations.joined(separator: ", "))")
                }
                merged.mergeThresholds = merged.evaluate(thresholds)
            }
            StaleTemporaryFiles.clean(beside: output)
            try AtomicFile.write(merged.json(), to: output)
            for failure in merged.failures {
                print("FAIL seed \(failure.seed): \(failure.kind): \(failure.message)\(failure.artifact.map { " (\($0))" } ?? "")")
            }
            for operation in merged.latency {
                print("  \(operation.operation): n=\(operation.count) p50=\(ReportFormat.duration(operation.p50Microseconds * 1_000)) p99=\(ReportFormat.duration(operation.p99Microseconds * 1_000)) max=\(ReportFormat.duration(operation.maxMicroseconds * 1_000))")
            }
            for verdict in merged.mergeThresholds ?? [] {
                let observed = verdict.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
                print("threshold \(verdict.expression) over the merged sweep: \(verdict.passed ? "met" : "MISSED") (observed \(observed))")
            }
            let coverage = merged.coverageSummary
            print("merged \(shards.count) shard(s) over \(merged.ranges.map(\.description).joined(separator: ", ")): \(merged.seedsRun) seeds, \(merged.seedsPassed) passed, \(merged.failures.count) failed\(coverage.isEmpty ? "" : "; \(coverage)")")
            print("result: \(output)")
            print("page: \(try SweepPage.write(merged, resultPath: output))")
            try JUnitOutput.write(JUnitReport.sweep(merged, command: "\(ScenarioRegistry.commandName) merge"), to: junit)
            if !merged.passed { throw ExitCode(1) }
        }
    }
}
