import Foundation

extension ReportWriter {
    /// The report as one self-contained HTML page (inline CSS and SVG, nothing fetched). A failing
    /// run opens with the violated check, its one-line message and the replay command, then the
    /// failure story as a sequence (one column per user, the backend's faults, the violation) and
    /// as lanes over virtual time; every story line links to its step in the full timeline.
    public static func html(_ report: RunReport) -> String {
        let e = ReportFormat.html
        var body = ""
        body += "<h1>\(e(report.scenario)) — <span class=\"\(report.passed ? "pass" : "fail")\">\(report.passed ? "PASS" : "FAIL")</span></h1>\n"
        body += verdictBox(report)
        if let story = report.story, !story.isEmpty {
            body += storySection(story, report: report)
        }
        body += "<h2 id=\"run\">Run</h2>\n<p>run <code>\(e(report.runId))</code> · seed \(report.seed) · strategy <code>\(e(report.strategy))</code> · variant <code>\(e(report.variant ?? "careful"))</code> · \(report.steps) steps · \(e(ReportFormat.duration(report.virtualNanoseconds))) \(report.clockKind)\(report.calendar.map { " (from \(PlotAxis.utc($0.unixNanoseconds(0))))" } ?? "") · trace <code>\(e(report.traceHash))</code> · \(e(report.build.compiler)) \(e(report.build.configuration)) @ \(e(report.build.commit))</p>\n"
        let parameters = report.parameters.keys.sorted().map { "\($0)=\(report.parameters[$0]!)" }.joined(separator: " ")
        body += "<p>parameters: <code>\(e(parameters))</code>\(report.swarm.map { " · swarm: <code>\(e($0.description))</code>" } ?? "")</p>\n"
        if let server = report.load?.server {
            body += "<p>backend: \(e(server))</p>\n<ul>\((report.load?.serverNotes ?? []).map { "<li>\(e($0))</li>" }.joined())</ul>\n"
        }
        body += "<h2 id=\"checks\">Checks</h2>\n<table><tr><th>check</th><th>kind</th><th>status</th><th>observations</th><th>asserts</th></tr>\n"
        for check in report.checks {
            body += "<tr class=\"\(check.status)\"><td>\(e(check.name))</td><td>\(check.kind.rawValue)</td><td>\(e(check.status.rawValue))\(check.unreachableReason.map { " (\(e($0)))" } ?? "")</td><td>\(check.observations)</td><td>\(e(check.summary))</td></tr>\n"
        }
        body += "</table>\n"
        body += latencySection(report)
        if let faults = report.faults, !faults.isEmpty {
            body += "<h2>Faults</h2>\n<table><tr><th>kind</th><th>chances</th><th>expected</th><th>observed</th></tr>\n"
            for fault in faults {
                // A kind that is no draw (a limit, contention) is counted, with no chances and no expectation.
                let counted = fault.opportunities == 0
                body += "<tr><td>\(e(fault.kind.rawValue))</td><td>\(counted ? "—" : "\(fault.opportunities)")</td><td>\(counted ? "counted" : String(format: "%.1f", fault.expected))</td><td>\(fault.observed)</td></tr>\n"
            }
            body += "</table>\n"
        }
        if let coverage = report.coverage, !coverage.isEmpty {
            body += "<h2 id=\"coverage\">Backend coverage</h2>\n" + coverageTable(coverage, seeds: nil)
        }
        if !report.timeline.isEmpty {
            body += "<h2 id=\"lanes\">Per-user timeline</h2>\n\(timelinePlot(report))\n"
            body += timelineTable(report)
        }
        return page(title: "\(report.scenario) \(report.runId)", body: body)
    }

    /// The page around `body`: inline CSS, nothing fetched.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(ReportFormat.html(title))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px;color:#222}
        table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left;vertical-align:top}
        .pass{color:#1a7f37}.fail{color:#cf222e}.verdict{padding:10px 14px;margin:1em 0;font-size:15px;line-height:1.5}
        .verdict.failed{background:#ffebe9;border:2px solid #cf222e}.verdict.passed{background:#dafbe1;border:2px solid #1a7f37}
        .verdict code{background:#fff;padding:2px 6px;border:1px solid #ccc;font-size:13px;user-select:all}
        tr.violated td{background:#ffebe9}tr.not-reached td,tr.never td{background:#fff8c5}tr.suppressed td{background:#ffebe9}
        .plots{display:flex;gap:16px;flex-wrap:wrap}svg{background:#fafafa;border:1px solid #ddd}
        svg text{font-size:10px;fill:#444}svg .title{font-size:11px;fill:#222;font-weight:600}pre{font-size:11px}
        .sequence td.fault{background:#fff1e0}.sequence tr.violation td{background:#ffebe9;font-weight:600;color:#a40e26}
        .sequence td.lane{background:#eef4ff}.note{color:#555;font-size:13px}.scroll{max-height:420px;overflow:auto;border:1px solid #ddd}
        .legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:12px;height:10px;margin-right:4px}
        tr:target td{outline:2px solid #bf8700;background:#fff8c5}
        </style></head><body>
        \(body)</body></html>

        """
    }

    /// The top of the page: the verdict, the violated check and its message, the replay command.
    static func verdictBox(_ report: RunReport) -> String {
        let e = ReportFormat.html
        var box = "<div class=\"verdict \(report.passed ? "passed" : "failed")\">"
        if let violation = report.violation {
            let kind = report.checks.first { $0.name == violation.check }?.kind.rawValue ?? violation.kind.rawValue
            box += "<b>Violated check: <span class=\"fail\">\(e(violation.check))</span></b> (\(e(kind))) — \(e(violation.message))<br>"
            box += "at <a href=\"#step-\(violation.step)\">step \(violation.step)</a>, \(e(FailureStory.time(violation.virtualNanoseconds))) virtual\(report.calendar.map { " (\(PlotAxis.utc($0.unixNanoseconds(violation.virtualNanoseconds), fractional: true)))" } ?? "")<br>"
        } else if let failure = report.failure {
            box += "<b>\(e(failure.kind.rawValue)) failure:</b> \(e(failure.message))<br>"
        } else {
            box += "<b>All checks held.</b>\(report.notChecked.isEmpty ? "" : " Not checked in this run: \(e(report.notChecked.joined(separator: ", "))).")<br>"
        }
        let command = report.replayOf.map { "\(ScenarioRegistry.commandName) replay \($0.artifact)" } ?? report.replayCommand
        box += "replay: <code>\(e(command))</code>"
        if let source = report.replayOf {
            box += "<br>replayed the failure artifact <code>\(e(source.artifact))</code> (its decisions log)"
            if let shrink = source.shrink {
                box += "; shrunk in \(shrink.runs) runs: preemptions \(shrink.preemptionsBefore)→\(shrink.preemptionsAfter), fault kinds \(shrink.faultKindsBefore.count)→\(shrink.faultKindsAfter.count)"
            }
            box += "; the same seed without the log: <code>\(e(report.replayCommand))</code>"
        }
        return box + "</div>\n"
    }

    // MARK: Story

    /// The failure story: a sequence table (time rows, one column per lane) and the same lines as
    /// lanes over virtual time, numbered alike; each line links to its step in the timeline.
    static func storySection(_ story: [StoryLine], report: RunReport) -> String {
        let e = ReportFormat.html
        let lanes = storyLanes(story)
        var html = "<h2 id=\"story\">How it failed: the story</h2>\n"
        html += "<p class=\"note\">The \(story.count - 1) event(s) before the violation that share a user or an object with it (the operations the check watches, and the faults that hit that object), then the violation. Numbers link to the step in the full timeline below.\(report.replayOf?.shrink != nil ? " This is the shrunk run." : "")</p>\n"
        html += "<table class=\"sequence\"><tr><th>#</th><th>time (virtual)</th>\(report.calendar != nil ? "<th>UTC</th>" : "")<th>step</th><th>who</th><th>what</th><th>operation (intended start → end)</th></tr>\n"
        for (index, line) in story.enumerated() {
            let anchor = storyAnchor(line, report: report)
            html += "<tr class=\"\(line.kind.rawValue)\"><td><a href=\"#\(anchor)\">\(index + 1)</a></td>"
            html += "<td>\(e(FailureStory.time(line.timeNanoseconds)))</td>"
            if let calendar = report.calendar {
                html += "<td>\(e(String(PlotAxis.utc(calendar.unixNanoseconds(line.timeNanoseconds), fractional: true).dropFirst(11))))</td>"
            }
            html += "<td>\(line.step.map { "<a href=\"#step-\($0)\">\($0)</a>" } ?? "—")</td>"
            switch line.kind {
            case .event: html += "<td class=\"lane\">\(e(line.user))</td><td>\(e(line.event))</td>"
            case .fault: html += "<td class=\"fault\">backend (fault)</td><td>\(e(line.event))</td>"
            case .violation: html += "<td>✖ \(e(line.user))</td><td>VIOLATED \(e(line.user)): \(e(line.event))</td>"
            }
            if let operation = line.operation, let start = line.startNanoseconds, let end = line.endNanoseconds {
                html += "<td>\(e(operation)) \(e(FailureStory.time(start)))→\(e(FailureStory.time(end))) (\(e(ReportFormat.duration(end - start))))</td>"
            } else {
                html += "<td></td>"
            }
            html += "</tr>\n"
        }
        html += "</table>\n"
        html += storyPlot(story, lanes: lanes, report: report)
        return html
    }

    /// Story lanes: users in natural order, then the backend.
    static func storyLanes(_ story: [StoryLine]) -> [String] {
        let users = Set(story.filter { $0.kind == .event }.map(\.user)).sorted(by: PlotAxis.naturalLess)
        return users + (story.contains { $0.kind == .fault } ? [FailureStory.backendUser] : [])
    }

    /// Where a story line points in the timeline table: its step, else its time's first row.
    static func storyAnchor(_ line: StoryLine, report: RunReport) -> String {
        if let step = line.step { return "step-\(step)" }
        let index = report.timeline.firstIndex { $0.user == line.user && $0.timeNanoseconds == line.timeNanoseconds && $0.event == line.event }
        return index.map { "e\($0)" } ?? "timeline"
    }

    /// The story as lanes over virtual time: operations as bars from intended start to end, events
    /// as numbered dots, faults as orange diamonds on the backend lane, the violation as a red line.
    static func storyPlot(_ story: [StoryLine], lanes: [String], report: RunReport) -> String {
        let e = ReportFormat.html
        let width = 1100.0, left = 150.0, right = 30.0, top = 44.0, lane = 34.0
        let allLanes = lanes + ["violation"]
        let height = top + lane * Double(allLanes.count) + 44
        var times = story.map(\.timeNanoseconds)
        times += story.compactMap(\.startNanoseconds) + story.compactMap(\.endNanoseconds)
        let low = times.min() ?? 0, high = max(times.max() ?? 1, low + 1)
        let span = high - low
        let pad = Double(span) * 0.03
        func x(_ t: UInt64) -> Double { left + (width - left - right) * (Double(t) - Double(low) + pad) / (Double(span) + 2 * pad) }
        var svg = "<svg class=\"story\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        svg += timeAxis(low: low, high: high, x: x, y: top - 6, above: true, calendar: report.calendar, pad: pad)
        svg += timeAxis(low: low, high: high, x: x, y: height - 38, above: false, calendar: report.calendar, pad: pad)
        for (index, name) in allLanes.enumerated() {
            let y = top + lane * (Double(index) + 0.5)
            let label = name == FailureStory.backendUser ? "backend (faults)" : name == "violation" ? "violation" : name
            svg += "<text x=\"6\" y=\"\(Int(y + 4))\" class=\"title\">\(e(label))</text><line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(Int(y))\" y2=\"\(Int(y))\" stroke=\"#ddd\"/>"
        }
        for (index, line) in story.enumerated() {
            let laneIndex = line.kind == .violation ? allLanes.count - 1 : (allLanes.firstIndex(of: line.user) ?? 0)
            let y = top + lane * (Double(laneIndex) + 0.5)
            let anchor = storyAnchor(line, report: report)
            let tip = "\(index + 1). \(FailureStory.time(line.timeNanoseconds)) \(line.user): \(line.event)"
            svg += "<a href=\"#\(anchor)\"><title>\(e(tip))</title>"
            switch line.kind {
            case .event:
                if let start = line.startNanoseconds, let end = line.endNanoseconds {
                    svg += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" fill=\"#9ec5fe\" stroke=\"#0969da\"/>", x(start), y - 5, max(2, x(end) - x(start)))
                }
                let failed = line.event.contains("fail") || line.event.contains("error")
                svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"%@\"/>", x(line.timeNanoseconds), y, failed ? "#cf222e" : "#0969da")
            case .fault:
                let px = x(line.timeNanoseconds)
                svg += String(format: "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#bc4c00\"/>", px, y - 9, px + 9, y, px, y + 9, px - 9, y)
            case .violation:
                let px = x(line.timeNanoseconds)
                svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/>", px, px, top, height - 44)
                svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" fill=\"#cf222e\" style=\"fill:#cf222e;font-size:16px;font-weight:700\">✖</text>", px - 6, y + 6)
            }
            let labelY = line.kind == .violation ? y - 10 : y + 3.5
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" style=\"fill:#fff;font-size:10px;font-weight:700\">%d</text>", x(line.timeNanoseconds) - (index + 1 >= 10 ? 5.5 : 3), labelY, index + 1)
            svg += "</a>"
        }
        svg += "</svg>"
        return "<div class=\"legend\"><span><i style=\"background:#0969da;border-radius:6px\"></i>user event (number = story line)</span><span><i style=\"background:#9ec5fe;border:1px solid #0969da\"></i>operation, intended start → end</span><span><i style=\"background:#cf222e;border-radius:6px\"></i>failed operation</span><span><i style=\"background:#bc4c00\"></i>fault injected by the backend</span><span><i style=\"background:#cf222e\"></i>violation</span></div>\n" + svg + "\n"
    }

    /// A horizontal time axis with tick labels (UTC when the calendar is known, else virtual
    /// elapsed time) and its title, above or below the plot.
    static func timeAxis(
        low: UInt64, high: UInt64, x: (UInt64) -> Double, y: Double, above: Bool, calendar: ReportCalendar?, pad: Double = 0
    ) -> String {
        let e = ReportFormat.html
        let span = high - low
        var svg = String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>", x(low), x(high), y, y)
        for t in PlotAxis.timeTicks(low: low, high: high, calendar: calendar) {
            let px = x(t)
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>", px, px, y - 3, y + 3)
            // Labels near an end are anchored inward, so none is clipped by the plot's edge.
            let anchor = px > x(high) - 40 ? "end" : px < x(low) + 40 ? "start" : "middle"
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%@\">%@</text>", px, above ? y - 6 : y + 13, anchor, e(PlotAxis.timeTick(t, calendar: calendar, spanNanoseconds: span)))
        }
        let title = calendar == nil ? "virtual time (elapsed)" : "time (UTC; virtual \(FailureStory.time(low))–\(FailureStory.time(high)))"
        svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" class=\"title\" text-anchor=\"middle\">%@</text>", (x(low) + x(high)) / 2, above ? y - 20 : y + 28, e(title))
        return svg
    }

    // MARK: Latency

    /// The latency table and, per operation, its percentile and time plots and spectrum, all from
    /// the same numbers (`LatencySummary`'s sorted samples).
    static func latencySection(_ report: RunReport) -> String {
        let e = ReportFormat.html
        guard !report.latency.isEmpty else { return "" }
        var html = "<h2 id=\"latency\">Latency (\(report.clockKind) time, from intended start)</h2>\n"
        html += "<table><tr><th>operation</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th><th>exemplars (percentile: seed/step/user)</th></tr>\n"
        for summary in report.latency {
            let exemplars = summary.exemplars.map { "\(e($0.percentile)): \($0.seed)/\($0.step)/\(e($0.user))" }.joined(separator: "<br>")
            html += "<tr><td>\(e(summary.operation))</td><td>\(summary.count)</td>"
            for value in [summary.p50Nanoseconds, summary.p90Nanoseconds, summary.p99Nanoseconds, summary.p999Nanoseconds, summary.maxNanoseconds, summary.meanNanoseconds] {
                html += "<td title=\"\(ReportFormat.milliseconds(value)) ms\">\(ReportFormat.duration(value))</td>"
            }
            html += "<td>\(exemplars)</td></tr>\n"
        }
        html += "</table>\n"
        for threshold in report.thresholds {
            let observed = threshold.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            html += "<p>threshold <code>\(e(threshold.expression))</code>: \(threshold.passed ? "met" : "<b class=\"fail\">missed</b>") (observed \(e(observed)))</p>\n"
        }
        for summary in report.latency {
            html += "<h3 id=\"latency-\(e(summary.operation))\">\(e(summary.operation))</h3>\n<div class=\"plots\">\(percentilePlot(points: summary.spectrumPoints, maxNanoseconds: summary.maxNanoseconds, count: summary.count))\(seriesPlot(summary, clock: report.clockKind, calendar: report.calendar))</div>\n"
            html += "<details><summary>percentile spectrum (HdrHistogram format, ms)</summary><pre>\(e(summary.spectrum))</pre></details>\n"
        }
        return html
    }

    /// Latency against percentile on HdrHistogram's 1/(1−p) log axis: ticks on both axes, axis
    /// titles, the maximum (100 %) drawn at the right edge and labelled; one sample is a flat line.
    static func percentilePlot(points rawPoints: [[Double]], maxNanoseconds: UInt64, count: Int) -> String {
        let width = 500.0, height = 270.0, left = 64.0, bottom = 44.0, top = 14.0, right = 16.0
        guard !rawPoints.isEmpty else { return "" }
        let finite = rawPoints.filter { $0[0] < 100 }.map(\.[0])
        // Decades to show: up to the last finite percentile's, at least 2 (99 %).
        let lastDecade = finite.map { log10(1 / (1 - $0 / 100)) }.max() ?? 0
        let decades = max(2.0, lastDecade.rounded(.up))
        let edge = decades * 1.1 + 0.2  // where the maximum (100 %) is drawn, clear of the last decade's label
        let yTicks = PlotAxis.durationTicks(upTo: Double(maxNanoseconds))
        let yTop = yTicks.last!
        func x(_ percentile: Double) -> Double {
            let decade = percentile >= 100 ? edge : min(edge, log10(1 / (1 - percentile / 100)))
            return left + (width - left - right) * decade / edge
        }
        func y(_ value: Double) -> Double { height - bottom - (height - bottom - top) * value / max(yTop, 1) }
        var svg = "<svg class=\"percentile\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        for tick in yTicks {
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%@</text>",
                          left, width - right, y(tick), y(tick), left - 4, y(tick) + 3, PlotAxis.durationLabel(tick))
        }
        var labels: [(String, Double)] = [("0%", 0)]
        for decade in 1...Int(decades) {
            let percentile = 100 - 100 / pow(10, Double(decade))
            labels.append((String(format: decade <= 2 ? "%.0f%%" : "%.\(decade - 2)f%%", percentile), percentile))
        }
        labels.append(("max", 100))
        for (label, percentile) in labels {
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%@</text>",
                          x(percentile), x(percentile), top, height - bottom, x(percentile), height - bottom + 13, label)
        }
        let path = rawPoints.map { String(format: "%.1f,%.1f", x($0[0]), y($0[1])) }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" points=\"\(path)\"/>"
        for point in rawPoints where rawPoints.count <= 3 {
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#0969da\"/>", x(point[0]), y(point[1]))
        }
        svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#cf222e\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" style=\"fill:#cf222e\">max %@</text>",
                      x(100), y(Double(maxNanoseconds)), x(100) - 6, max(top + 10, y(Double(maxNanoseconds)) - 6), ReportFormat.duration(maxNanoseconds))
        svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" class=\"title\" text-anchor=\"middle\">percentile (log scale of 1/(1−p)); %d sample%@</text>", left + (width - left - right) / 2, height - 12, count, count == 1 ? "" : "s")
        svg += String(format: "<text transform=\"translate(13,%.1f) rotate(-90)\" class=\"title\" text-anchor=\"middle\">latency</text>", top + (height - bottom - top) / 2)
        return svg + "</svg>"
    }

    /// `percentilePlot` of one summary (test hook).
    package static func percentilePlotForTests(_ summary: LatencySummary) -> String {
        percentilePlot(points: summary.spectrumPoints, maxNanoseconds: summary.maxNanoseconds, count: summary.count)
    }

    /// Each sampled operation's latency at its completion time (the thinning keeps every stretch's
    /// slowest, so the maximum is drawn); ticks and titles on both axes.
    static func seriesPlot(_ summary: LatencySummary, clock: ClockKind, calendar: ReportCalendar?) -> String {
        let width = 500.0, height = 270.0, left = 64.0, bottom = 44.0, top = 14.0, right = 24.0
        guard let maxTime = summary.series.map({ $0[0] }).max(), let maxValue = summary.series.map({ $0[1] }).max() else { return "" }
        let minTime = summary.series.map { $0[0] }.min() ?? 0
        let high = max(maxTime, minTime + 1)
        let yTicks = PlotAxis.durationTicks(upTo: Double(maxValue))
        let yTop = max(yTicks.last!, 1)
        func x(_ t: UInt64) -> Double { left + (width - left - right) * Double(t - minTime) / Double(high - minTime) }
        func y(_ value: Double) -> Double { height - bottom - (height - bottom - top) * value / yTop }
        var svg = "<svg class=\"series\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        for tick in yTicks {
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%@</text>",
                          left, width - right, y(tick), y(tick), left - 4, y(tick) + 3, PlotAxis.durationLabel(tick))
        }
        let effectiveCalendar = clock == .wall ? nil : calendar
        for tick in PlotAxis.timeTicks(low: minTime, high: high, calendar: effectiveCalendar, count: 4) {
            let px = x(tick)
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%@\">%@</text>",
                          px, px, top, height - bottom, px, height - bottom + 13, px > width - right - 45 ? "end" : "middle",
                          ReportFormat.html(PlotAxis.timeTick(tick, calendar: effectiveCalendar, spanNanoseconds: high - minTime)))
        }
        var worst: [UInt64]?
        for point in summary.series {
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#bf3989\"/>", x(point[0]), y(Double(point[1])))
            if point[1] == maxValue && worst == nil { worst = point }
        }
        if let worst {
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"none\" stroke=\"#cf222e\" stroke-width=\"2\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%@\" style=\"fill:#cf222e\">max %@</text>",
                          x(worst[0]), y(Double(worst[1])), x(worst[0]) + (x(worst[0]) > width / 2 ? -7 : 7), max(top + 10, y(Double(worst[1])) - 6),
                          x(worst[0]) > width / 2 ? "end" : "start", ReportFormat.duration(maxValue))
        }
        let axisTitle = clock == .wall ? "completion time (wall clock, elapsed)" : effectiveCalendar == nil ? "completion time (virtual, elapsed)" : "completion time (UTC)"
        svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" class=\"title\" text-anchor=\"middle\">%@</text>", left + (width - left - right) / 2, height - 12, axisTitle)
        svg += String(format: "<text transform=\"translate(13,%.1f) rotate(-90)\" class=\"title\" text-anchor=\"middle\">latency</text>", top + (height - bottom - top) / 2)
        return svg + "</svg>"
    }

    // MARK: Timeline

    /// Lanes shown before the rest is aggregated into one lane.
    static let maxTimelineLanes = 30

    /// One lane per user in natural order (the backend's faults last), a tick per event (hover:
    /// virtual time, UTC, the user's local time in calendar scenarios); time axes at the top and
    /// bottom; a legend. With more than `maxTimelineLanes` users only the story's users (failing
    /// runs) or the first users in natural order get lanes and the rest share one aggregate lane.
    static func timelinePlot(_ report: RunReport) -> String {
        let e = ReportFormat.html
        let timeline = report.timeline
        let users = Set(timeline.map(\.user)).subtracting([FailureStory.backendUser]).sorted(by: PlotAxis.naturalLess)
        let (shown, note) = timelineLanes(users, story: report.story)
        let shownSet = Set(shown)
        let aggregated = users.count > shown.count
        let hasBackend = timeline.contains { $0.user == FailureStory.backendUser }
        let lanes = shown + (aggregated ? ["other users (\(users.count - shown.count))"] : []) + (hasBackend ? [FailureStory.backendUser] : [])
        let zones = report.calendar?.timeZones ?? [:]
        let width = 1100.0, lane = 20.0, left = zones.isEmpty ? 150.0 : 250.0, right = 30.0, top = 44.0
        let height = top + lane * Double(lanes.count) + 46
        let minTime = timeline.map(\.timeNanoseconds).min() ?? 0
        let maxTime = max(timeline.map(\.timeNanoseconds).max() ?? 0, minTime + 1)
        func x(_ t: UInt64) -> Double { left + (width - left - right) * Double(t - minTime) / Double(maxTime - minTime) }
        var svg = "<svg class=\"timeline\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        svg += timeAxis(low: minTime, high: maxTime, x: x, y: top - 6, above: true, calendar: report.calendar)
        svg += timeAxis(low: minTime, high: maxTime, x: x, y: height - 40, above: false, calendar: report.calendar)
        for (index, name) in lanes.enumerated() {
            let y = top + lane * (Double(index) + 0.5)
            let label = name == FailureStory.backendUser ? "backend (faults)" : zones[name].map { "\(name) · \($0)" } ?? name
            svg += "<text x=\"4\" y=\"\(Int(y + 4))\">\(e(label))</text><line x1=\"\(Int(left))\" x2=\"\(Int(width - right))\" y1=\"\(Int(y))\" y2=\"\(Int(y))\" stroke=\"#eee\"/>"
        }
        for (entryIndex, entry) in timeline.enumerated() {
            let laneIndex: Int
            if entry.user == FailureStory.backendUser { laneIndex = lanes.count - 1 }
            else if shownSet.contains(entry.user) { laneIndex = shown.firstIndex(of: entry.user)! }
            else { laneIndex = shown.count }
            let y = top + lane * (Double(laneIndex) + 0.5)
            let color = entry.user == FailureStory.backendUser ? "#bc4c00" : entry.event.contains("fail") || entry.event.contains("error") ? "#cf222e" : laneIndex == shown.count && aggregated ? "#8c959f" : "#0969da"
            let tip = timelineTip(entry, calendar: report.calendar, zones: zones)
            svg += String(format: "<a href=\"#e%d\"><rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"12\" fill=\"%@\">", entryIndex, x(entry.timeNanoseconds) - 1, y - 6, color)
                + "<title>\(e(tip))</title></rect></a>"
        }
        if let violation = report.violation, violation.virtualNanoseconds >= minTime {
            let px = x(min(violation.virtualNanoseconds, maxTime))
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/>", px, px, top, height - 40)
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" style=\"fill:#cf222e;font-weight:600\">%@</text>", px - 4, top + 10, e("✖ \(violation.check)"))
        }
        svg += "</svg>"
        let legend = timelineLegend(hasBackend: hasBackend, aggregated: aggregated)
        let zoneNote = zones.isEmpty ? "" : " Hover an event for its UTC and the user's local time."
        return (note.isEmpty && zoneNote.isEmpty ? "" : "<p class=\"note\">\(e(note))\(zoneNote)</p>") + legend + svg
    }

    /// The users that get a lane of their own, and the note saying who shares the aggregate lane:
    /// everyone up to `maxTimelineLanes`, else the failure story's users, else the first users.
    private static func timelineLanes(_ users: [String], story: [StoryLine]?) -> (shown: [String], note: String) {
        guard users.count > maxTimelineLanes else { return (users, "") }
        let storyUsers = Set((story ?? []).filter { $0.kind == .event }.map(\.user))
        if !storyUsers.isEmpty {
            let shown = users.filter { storyUsers.contains($0) }
            return (shown, "Showing the \(shown.count) user(s) of the failure story out of \(users.count); the other \(users.count - shown.count) share the lane “other users”.")
        }
        let shown = Array(users.prefix(maxTimelineLanes - 6))
        return (shown, "Showing the first \(shown.count) of \(users.count) users (natural order); the other \(users.count - shown.count) share the lane “other users”.")
    }

    /// An event tick's hover text: virtual time, UTC and the user's local time in calendar runs.
    private static func timelineTip(_ entry: TimelineEntry, calendar: ReportCalendar?, zones: [String: String]) -> String {
        var tip = "\(FailureStory.time(entry.timeNanoseconds))"
        if let calendar {
            let unix = calendar.unixNanoseconds(entry.timeNanoseconds)
            tip += " · \(PlotAxis.utc(unix, fractional: true))"
            if let zone = zones[entry.user], let local = PlotAxis.local(unix, zoneIdentifier: zone) { tip += " · local \(local)" }
        }
        tip += " · \(entry.user): \(entry.event)"
        return tip
    }

    /// The timeline's legend: the backend's and the aggregate lane's colours only when shown.
    private static func timelineLegend(hasBackend: Bool, aggregated: Bool) -> String {
        var legend = "<div class=\"legend\"><span><i style=\"background:#0969da\"></i>user event</span><span><i style=\"background:#cf222e\"></i>failed operation / violation</span>"
        if hasBackend { legend += "<span><i style=\"background:#bc4c00\"></i>fault injected by the backend</span>" }
        if aggregated { legend += "<span><i style=\"background:#8c959f\"></i>other users (aggregated)</span>" }
        legend += "</div>"
        return legend
    }

    /// Every timeline entry with its step (the anchors story lines and lane ticks link to).
    static func timelineTable(_ report: RunReport) -> String {
        let e = ReportFormat.html
        let zones = report.calendar?.timeZones ?? [:]
        var html = "<h3 id=\"timeline\">Timeline (\(report.timeline.count) events\(report.droppedTimelineEntries > 0 ? ", \(report.droppedTimelineEntries) more dropped" : ""))</h3>\n<div class=\"scroll\"><table><tr><th>#</th><th>step</th><th>time (virtual)</th>\(report.calendar != nil ? "<th>UTC</th>" : "")\(zones.isEmpty ? "" : "<th>user's local time</th>")<th>user</th><th>event</th></tr>\n"
        var anchored = Set<UInt64>()
        var violationShown = false
        func violationRow(_ violation: InvariantViolation) -> String {
            anchored.insert(violation.step)
            return "<tr id=\"step-\(violation.step)\" class=\"violated\"><td></td><td>\(violation.step)</td><td>\(e(FailureStory.time(violation.virtualNanoseconds)))</td>\(report.calendar.map { "<td>\(e(PlotAxis.utc($0.unixNanoseconds(violation.virtualNanoseconds), fractional: true)))</td>" } ?? "")\(zones.isEmpty ? "" : "<td></td>")<td>✖ \(e(violation.check))</td><td>VIOLATED: \(e(violation.message))</td></tr>\n"
        }
        for (index, entry) in report.timeline.enumerated() {
            if let violation = report.violation, !violationShown, entry.timeNanoseconds > violation.virtualNanoseconds || (entry.step ?? 0) > violation.step {
                html += violationRow(violation)
                violationShown = true
            }
            var anchor = ""
            if let step = entry.step, !anchored.contains(step) {
                anchored.insert(step)
                anchor = "<a id=\"step-\(step)\"></a>"
            }
            html += "<tr id=\"e\(index)\" class=\"\(entry.user == FailureStory.backendUser ? "fault" : "")\"><td>\(index)</td><td>\(anchor)\(entry.step.map(String.init) ?? "—")</td><td>\(e(FailureStory.time(entry.timeNanoseconds)))</td>"
            if let calendar = report.calendar { html += "<td>\(e(PlotAxis.utc(calendar.unixNanoseconds(entry.timeNanoseconds), fractional: true)))</td>" }
            if !zones.isEmpty, let calendar = report.calendar {
                html += "<td>\(e(zones[entry.user].flatMap { PlotAxis.local(calendar.unixNanoseconds(entry.timeNanoseconds), zoneIdentifier: $0) } ?? ""))</td>"
            }
            html += "<td>\(e(entry.user))</td><td>\(e(entry.event))</td></tr>\n"
        }
        if let violation = report.violation, !violationShown { html += violationRow(violation) }
        return html + "</table></div>\n"
    }

    // MARK: Coverage

    /// Per declared callable, trigger, scheduled job and rule: invocations (evaluations for rules),
    /// how many threw (denied), never-exercised ones highlighted first in a summary line.
    static func coverageTable(_ coverage: [CoverageEntry], seeds: Int?) -> String {
        let e = ReportFormat.html
        let never = coverage.filter { $0.invocations == 0 }
        var html = "<p class=\"coverage-summary\">\(coverage.count - never.count) of \(coverage.count) declared functions, triggers, scheduled jobs and rules ran"
        html += never.isEmpty ? ".</p>\n" : "; <b>never exercised</b>: \(never.map { "\(e($0.kind)) <code>\(e($0.name))</code>" }.joined(separator: ", ")).</p>\n"
        html += "<table class=\"coverage\"><tr><th>kind</th><th>name</th><th>invocations</th><th>threw / denied</th>\(seeds != nil ? "<th>per seed</th>" : "")</tr>\n"
        for count in coverage {
            html += "<tr class=\"\(count.invocations == 0 ? "never" : "")\"><td>\(e(count.kind))</td><td><code>\(e(count.name))</code></td><td>\(count.invocations == 0 ? "0 — never exercised" : "\(count.invocations)")</td><td>\(count.failures)</td>"
            if let seeds, seeds > 0 { html += "<td>\(String(format: "%.1f", Double(count.invocations) / Double(seeds)))</td>" }
            html += "</tr>\n"
        }
        return html + "</table>\n<p class=\"note\">Rules count evaluations (a denied one is in the last column); functions count invocations, retries and duplicate deliveries included.</p>\n"
    }
}
