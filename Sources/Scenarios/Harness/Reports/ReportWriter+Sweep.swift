import Foundation
import Histogram

extension ReportWriter {
    /// A failure's story as `fuzz`/`merge` found it (read from its artifact), for the sweep page.
    package struct SweepStory: Sendable {
        /// The failing seed.
        package var seed: UInt64
        /// Its story, from the artifact.
        package var lines: [String]
        /// The shrunk artifact's path (the sweep's first failure, shrunk by `fuzz`).
        package var shrunkArtifact: String?

        /// A story with every field given.
        package init(seed: UInt64, lines: [String], shrunkArtifact: String? = nil) {
            self.seed = seed
            self.lines = lines
            self.shrunkArtifact = shrunkArtifact
        }
    }

    /// `sweep.json`'s page: the verdict, failures with their checks and replay commands, Sometimes
    /// goals and how many seeds reached each, strategies and fault kinds with counts, latency per
    /// operation (table and plot from the same merged HdrHistogram) and the backend coverage table.
    package static func sweepHTML(_ result: SweepResult, stories: [SweepStory] = []) -> String {
        var body = sweepVerdict(result, stories: stories)
        body += sweepRunLine(result)
        body += sweepFailures(result, stories: stories)
        body += sweepChecks(result)
        body += sweepStrategies(result)
        body += sweepWorlds(result)
        body += sweepFaults(result)
        body += sweepLatency(result)
        body += sweepCoverage(result)
        return page(title: "sweep \(result.scenario)", body: body)
    }

    /// The heading and the verdict box: seeds run, failed checks, the first failure and its replay, coverage in one line.
    static func sweepVerdict(_ result: SweepResult, stories: [SweepStory]) -> String {
        let e = ReportFormat.html
        var body = "<h1>Sweep \(e(result.scenario)) — <span class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "PASS" : "FAIL")</span></h1>\n"
        let requested = result.requested.map { " of \($0.count) requested (\($0.description))" } ?? ""
        body += "<div class=\"verdict \(result.passed ? "passed" : "failed")\"><b>\(result.seedsRun) seeds run\(e(requested)): \(result.seedsPassed) passed, \(result.failures.count) failed.</b>"
        if !result.failures.isEmpty {
            var byCheck: [String: Int] = [:]
            for failure in result.failures { byCheck[failure.check ?? failure.kind.rawValue, default: 0] += 1 }
            body += "<br>Failed: " + byCheck.keys.sorted().map { "<b>\(e($0))</b> (\(byCheck[$0]!) seed\(byCheck[$0]! == 1 ? "" : "s"))" }.joined(separator: ", ")
        }
        if let first = result.failures.first {
            body += "<br>First failure: seed \(first.seed) — \(first.check.map { "<b>\(e($0))</b>: " } ?? "\(e(first.kind.rawValue)): ")\(e(message(first)))"
            body += "<br>replay: <code>\(e(replayCommand(first, sweep: result, stories: stories)))</code>"
        }
        if let backend = result.coverage?.backend, !backend.isEmpty {
            let never = backend.filter { $0.invocations == 0 }.count
            body += "<br>Backend coverage: \(backend.count - never) of \(backend.count) declared functions, triggers, scheduled jobs and rules ran\(never > 0 ? " (<a href=\"#coverage\">\(never) never exercised</a>)" : "")."
        }
        let coverageSummary = result.coverageSummary
        if !coverageSummary.isEmpty { body += "<br>\(e(coverageSummary))" }
        body += "</div>\n"
        return body
    }

    /// What ran: strategy, variant, swarm, seeds, shard, determinism checks, build, parameters and thresholds.
    static func sweepRunLine(_ result: SweepResult) -> String {
        let e = ReportFormat.html
        var body = "<p>strategy <code>\(e(result.strategy))</code> · variant <code>\(e(result.variant ?? "careful"))</code> · world \(e(result.world?.rawValue ?? "default")) · swarm \(result.swarm ? "on" : "off") · seeds \(e(result.ranges.map(\.description).joined(separator: ", ")))\(result.shard.map { " · shard \(e($0))" } ?? "") · determinism checked on \(result.determinismChecked.count) seed(s) · \(e(result.build.compiler)) \(e(result.build.configuration)) @ \(e(result.build.commit))</p>\n"
        let parameters = result.parameters.keys.sorted().map { "\($0)=\(result.parameters[$0]!)" }.joined(separator: " ")
        body += "<p>parameters: <code>\(e(parameters))</code>\((result.thresholds ?? []).isEmpty ? "" : " · thresholds: <code>\(e((result.thresholds ?? []).joined(separator: " ")))</code>")</p>\n"
        return body
    }

    /// The failures section: one row per failing seed (the first `shownFailures` open, up to 200 in all), with story and replay.
    static func sweepFailures(_ result: SweepResult, stories: [SweepStory]) -> String {
        let e = ReportFormat.html
        var body = "<h2>Failures (\(result.failures.count))</h2>\n"
        guard !result.failures.isEmpty else { return body + "<p>No seed failed.</p>\n" }
        body += "<table class=\"failures\"><tr><th>seed</th><th>kind</th><th>check</th><th>message</th><th>step</th><th>replay</th></tr>\n"
        for (index, failure) in result.failures.prefix(200).enumerated() {
            if index == shownFailures {
                body += "</table>\n<details><summary>\(min(200, result.failures.count) - shownFailures) more failures</summary><table class=\"failures\"><tr><th>seed</th><th>kind</th><th>check</th><th>message</th><th>step</th><th>replay</th></tr>\n"
            }
            let story = stories.first { $0.seed == failure.seed }
            var message = e(message(failure))
            if let world = failure.world { message += "<br><span class=\"note\">world: \(e(world.description))</span>" }
            if let story, !story.lines.isEmpty {
                message += "<details><summary>story\(story.shrunkArtifact != nil ? " (shrunk)" : "")</summary><pre>\(e(story.lines.joined(separator: "\n")))</pre></details>"
            }
            let replayed = failure.replayed.map { $0 ? " <span class=\"pass\">(artifact replays ✓)</span>" : " <b class=\"fail\">(artifact did NOT replay)</b>" } ?? ""
            body += "<tr class=\"violated\"><td>\(failure.seed)</td><td>\(e(failure.kind.rawValue))</td><td>\(e(failure.check ?? "—"))</td><td>\(message)</td><td>\(failure.step.map(String.init) ?? "—")</td><td><code>\(e(replayCommand(failure, sweep: result, stories: stories)))</code>\(replayed)</td></tr>\n"
        }
        body += result.failures.count > shownFailures ? "</table></details>\n" : "</table>\n"
        if result.failures.count > 200 { body += "<p class=\"note\">\(result.failures.count - 200) more failures in the JSON result.</p>\n" }
        return body
    }

    /// The worlds the sweep drew: per parameter, fault knob and outage kind, the seeds run and
    /// failed in each band (minimum, below the default, the default, above it, maximum; on/off).
    static func sweepWorlds(_ result: SweepResult) -> String {
        guard let worlds = result.worlds else { return "" }
        let e = ReportFormat.html
        var body = "<h2 id=\"worlds\">Worlds (\(e(result.world?.rawValue ?? "swarm")))</h2>\n"
        body += "<p class=\"note\">Seeds run / failed per band of each drawn value. A band where seeds failed and others passed points at what the failures need.</p>\n"
        let bands = WorldCoverage.Position.allCases.map(\.rawValue)
        func table(_ title: String, _ rows: [String: [String: WorldCoverage.Band]], columns: [String]) -> String {
            guard !rows.isEmpty else { return "" }
            var html = "<table class=\"worlds\"><tr><th>\(title)</th>" + columns.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
            for name in rows.keys.sorted() {
                html += "<tr><td><code>\(e(name))</code></td>"
                for column in columns {
                    let band = rows[name]?[column]
                    let failed = (band?.failures ?? 0) > 0
                    html += "<td class=\"\(failed ? "violated" : "")\">\(band.map { "\($0.seeds)\($0.failures > 0 ? " / <b>\($0.failures) failed</b>" : "")" } ?? "—")</td>"
                }
                html += "</tr>\n"
            }
            return html + "</table>\n"
        }
        body += table("parameter", worlds.parameters, columns: bands)
        body += table("fault knob", worlds.faults, columns: bands)
        body += table("outage", worlds.outages, columns: ["off", "on"])
        return body
    }

    /// The checks and goals table: each Sometimes goal with how many seeds reached it, then each Always/Eventually check's status.
    static func sweepChecks(_ result: SweepResult) -> String {
        let e = ReportFormat.html
        var body = "<h2>Checks and goals</h2>\n<table><tr><th>check</th><th>kind</th><th>status</th><th>seeds</th></tr>\n"
        let seedGoals = result.coverage?.goalSeeds
        for goal in result.goals {
            let unreachable = result.unreachable.first { $0.name == goal }
            let reached = result.reached.contains(goal)
            let seeds = seedGoals?[goal].map { "\($0) of \(result.seedsRun) (\(String(format: "%.1f", 100 * Double($0) / Double(max(1, result.seedsRun)))) %)" } ?? (reached ? "some" : "0")
            let status = reached ? "reached" : unreachable != nil ? "unreachable (\(unreachable!.reason))" : "never reached"
            body += "<tr class=\"\(reached || unreachable != nil ? "" : "not-reached")\"><td>\(e(goal))</td><td>sometimes</td><td>\(e(status))</td><td>\(seeds)</td></tr>\n"
        }
        let failedChecks = Set(result.failures.compactMap(\.check))
        for check in result.checks {
            let unreachable = result.unreachable.first { $0.name == check }
            let status = failedChecks.contains(check) ? "violated" : result.checked.contains(check) ? "held" : unreachable != nil ? "unreachable (\(unreachable!.reason))" : "never evaluated"
            let failing = result.failures.filter { $0.check == check }.count
            body += "<tr class=\"\(failedChecks.contains(check) ? "violated" : status == "never evaluated" ? "not-reached" : "")\"><td>\(e(check))</td><td>always / eventually</td><td>\(e(status))</td><td>\(failing > 0 ? "\(failing) failing" : "")</td></tr>\n"
        }
        body += "</table>\n"
        return body
    }

    /// The strategies table (seeds and failures per strategy), empty when the sweep counted none.
    static func sweepStrategies(_ result: SweepResult) -> String {
        guard let strategies = result.coverage?.strategies, !strategies.isEmpty else { return "" }
        let e = ReportFormat.html
        var body = "<h2>Strategies</h2>\n<table><tr><th>strategy</th><th>seeds</th><th>failed</th></tr>\n"
        for name in strategies.keys.sorted(by: PlotAxis.naturalLess) {
            body += "<tr><td><code>\(e(name))</code></td><td>\(strategies[name]!.seeds)</td><td>\(strategies[name]!.failures)</td></tr>\n"
        }
        body += "</table>\n"
        return body
    }

    /// The faults table: per fault kind, chances, expected and observed injections, empty without faults.
    static func sweepFaults(_ result: SweepResult) -> String {
        guard let faults = result.faults, !faults.isEmpty else { return "" }
        let e = ReportFormat.html
        var body = "<h2>Faults: observed vs expected</h2>\n<table><tr><th>kind</th><th>chances</th><th>expected</th><th>observed</th><th>verdict</th></tr>\n"
        for fault in faults {
            let counted = fault.opportunities == 0
            let expected = counted ? "—" : String(format: "%.1f ± %.1f", fault.expected, fault.variance.squareRoot())
            let verdict = fault.verdict.fails ? "<b class=\"fail\">\(e(fault.verdict.description))</b>" : e(fault.verdict.description)
            body += "<tr class=\"\(fault.verdict.fails ? "suppressed" : "")\"><td>\(e(fault.kind.rawValue))</td><td>\(counted ? "—" : "\(fault.opportunities)")</td><td>\(expected)</td><td>\(fault.observed)</td><td>\(verdict)</td></tr>\n"
        }
        body += "</table>\n"
        return body
    }

    /// The latency section: per operation, percentiles from the merged HdrHistogram and its percentile plot; empty without samples.
    static func sweepLatency(_ result: SweepResult) -> String {
        guard !result.latency.isEmpty else { return "" }
        let e = ReportFormat.html
        var body = "<h2>Latency over all seeds (merged HdrHistogram, µs buckets, 3 significant digits)</h2>\n"
        body += "<table><tr><th>operation</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th></tr>\n"
        for operation in result.latency {
            let histogram = operation.histogram
            body += "<tr><td>\(e(operation.operation))</td><td>\(histogram.totalCount)</td>"
            for percentile in [50.0, 90, 99, 99.9] { body += "<td>\(ReportFormat.duration(SweepResult.OperationLatency.percentile(percentile, of: histogram) * 1_000))</td>" }
            body += "<td>\(ReportFormat.duration(operation.maxMicroseconds * 1_000))</td><td>\(ReportFormat.duration(UInt64(histogram.mean * 1_000)))</td></tr>\n"
        }
        body += "</table>\n<div class=\"plots\">"
        for operation in result.latency where operation.histogram.totalCount > 0 {
            let points = operation.histogram.percentiles(ticksPerHalfDistance: 5).map { [$0.percentileLevelIteratedTo, Double($0.value) * 1_000] }
            body += "<div><h3>\(e(operation.operation))</h3>\(percentilePlot(points: points, maxNanoseconds: operation.maxMicroseconds * 1_000, count: Int(operation.histogram.totalCount)))</div>"
        }
        body += "</div>\n"
        return body
    }

    /// The backend coverage section: the coverage table, or a note when the sweep recorded none.
    static func sweepCoverage(_ result: SweepResult) -> String {
        let body = "<h2 id=\"coverage\">Backend coverage</h2>\n"
        guard let coverage = result.coverage, !coverage.backend.isEmpty else {
            return body + "<p class=\"note\">No coverage recorded (a result written before coverage was counted, or a scenario without a backend).</p>\n"
        }
        return body + coverageTable(coverage.backend, seeds: result.seedsRun)
    }

    /// The command that replays `failure`: its shrunk artifact when there is one, else its artifact.
    static func replayCommand(_ failure: SweepFailure, sweep: SweepResult, stories: [SweepStory]) -> String {
        if let shrunk = stories.first(where: { $0.seed == failure.seed })?.shrunkArtifact { return "\(ScenarioRegistry.commandName) replay \(shrunk)" }
        if let artifact = failure.artifact { return "\(ScenarioRegistry.commandName) replay \(artifact)" }
        return sweep.runCommandLine(seed: failure.seed).description
    }

    /// Failure rows shown before the rest fold into a `<details>`.
    static let shownFailures = 20

    /// A failure's one-line message without the check's name it repeats.
    static func message(_ failure: SweepFailure) -> String {
        var text = oneLine(failure.message)
        if let check = failure.check, text.hasPrefix(check + ": ") { text.removeFirst(check.count + 2) }
        return text
    }

    /// The first line of `text`, at most 300 characters.
    static func oneLine(_ text: String) -> String {
        let line = text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}
