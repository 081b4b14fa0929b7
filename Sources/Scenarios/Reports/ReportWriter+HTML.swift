import Foundation

extension ReportWriter {
    /// The report as one self-contained HTML page (inline CSS and SVG, nothing fetched).
    public static func html(_ report: RunReport) -> String {
        let e = ReportFormat.html
        var body = ""
        body += "<h1>\(e(report.scenario)) — <span class=\"\(report.passed ? "pass" : "fail")\">\(report.passed ? "PASS" : "FAIL")</span></h1>\n"
        body += "<p>run <code>\(e(report.runId))</code> · seed \(report.seed) · strategy <code>\(e(report.strategy))</code> · variant <code>\(e(report.variant ?? "careful"))</code> · \(report.steps) steps · \(e(ReportFormat.duration(report.virtualNanoseconds))) \(report.clockKind) · trace <code>\(e(report.traceHash))</code> · \(e(report.build.compiler)) \(e(report.build.configuration)) @ \(e(report.build.commit))</p>\n"
        let parameters = report.parameters.keys.sorted().map { "\($0)=\(report.parameters[$0]!)" }.joined(separator: " ")
        body += "<p>parameters: <code>\(e(parameters))</code></p>\n"
        if let failure = report.failure {
            body += "<div class=\"failure\"><b>\(e(failure.kind)) failure:</b> \(e(failure.message))<br>replay: <code>\(e(report.replayCommand))</code></div>\n"
        }
        body += "<h2>Checks</h2>\n<table><tr><th>check</th><th>kind</th><th>status</th><th>observations</th><th>asserts</th></tr>\n"
        for check in report.checks {
            body += "<tr class=\"\(check.status)\"><td>\(e(check.name))</td><td>\(check.kind.rawValue)</td><td>\(e(check.status))</td><td>\(check.observations)</td><td>\(e(check.summary))</td></tr>\n"
        }
        body += "</table>\n<h2>Latency (\(report.clockKind) time, from intended start)</h2>\n"
        body += "<table><tr><th>operation</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>exemplars (percentile: seed/step/user)</th></tr>\n"
        for summary in report.latency {
            let exemplars = summary.exemplars.map { "\($0.percentile): \($0.seed)/\($0.step)/\($0.user)" }.joined(separator: "<br>")
            body += "<tr><td>\(e(summary.operation))</td><td>\(summary.count)</td><td>\(ReportFormat.duration(summary.p50Nanoseconds))</td><td>\(ReportFormat.duration(summary.p90Nanoseconds))</td><td>\(ReportFormat.duration(summary.p99Nanoseconds))</td><td>\(ReportFormat.duration(summary.p999Nanoseconds))</td><td>\(ReportFormat.duration(summary.maxNanoseconds))</td><td>\(e(exemplars).replacingOccurrences(of: "&lt;br&gt;", with: "<br>"))</td></tr>\n"
        }
        body += "</table>\n"
        for threshold in report.thresholds {
            let observed = threshold.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            body += "<p>threshold <code>\(e(threshold.expression))</code>: \(threshold.passed ? "met" : "<b class=\"fail\">missed</b>") (observed \(e(observed)))</p>\n"
        }
        for summary in report.latency {
            body += "<h3>\(e(summary.operation))</h3>\n<div class=\"plots\">\(percentilePlot(summary))\(seriesPlot(summary, clock: report.clockKind))</div>\n"
            body += "<details><summary>percentile spectrum (HdrHistogram, ms)</summary><pre>\(e(summary.spectrum))</pre></details>\n"
        }
        if !report.timeline.isEmpty {
            body += "<h2>Per-user timeline</h2>\n\(timelinePlot(report.timeline))\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(e(report.scenario)) \(e(report.runId))</title>
            <style>
            body{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:#222}
            table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px;text-align:left}
            .pass{color:#1a7f37}.fail{color:#cf222e}.failure{background:#ffebe9;border:1px solid #cf222e;padding:8px;margin:1em 0}
            tr.violated td{background:#ffebe9}tr.not-reached td{background:#fff8c5}
            .plots{display:flex;gap:16px;flex-wrap:wrap}svg{background:#fafafa;border:1px solid #ddd}
            svg text{font-size:10px;fill:#555}pre{font-size:11px}
            </style></head><body>
            \(body)</body></html>

            """
    }

    /// Latency against percentile on HdrHistogram's usual 1/(1−p) log axis.
    static func percentilePlot(_ summary: LatencySummary) -> String {
        let width = 480.0, height = 240.0, left = 50.0, bottom = 30.0
        let points = summary.spectrumPoints.filter { $0[0] < 100 }
        guard let maxValue = summary.spectrumPoints.map({ $0[1] }).max(), maxValue > 0 else { return "" }
        let maxX = log10(1 / (1 - min(0.99999, (points.last?[0] ?? 99) / 100)))
        func x(_ percentile: Double) -> Double { left + (width - left - 10) * log10(1 / (1 - percentile / 100)) / max(maxX, 1) }
        func y(_ value: Double) -> Double { height - bottom - (height - bottom - 10) * value / maxValue }
        let path = points.map { String(format: "%.1f,%.1f", x($0[0]), y($0[1])) }.joined(separator: " ")
        var svg = "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        svg += "<polyline fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" points=\"\(path)\"/>"
        for (label, percentile) in [("50%", 50.0), ("90%", 90.0), ("99%", 99.0), ("99.9%", 99.9)] where log10(1 / (1 - percentile / 100)) <= max(maxX, 1) {
            svg += String(format: "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"10\" y2=\"%.1f\" stroke=\"#ddd\"/><text x=\"%.1f\" y=\"%.1f\">",
                          x(percentile), x(percentile), height - bottom, x(percentile) - 8, height - 12) + label + "</text>"
        }
        svg += "<text x=\"4\" y=\"14\">\(ReportFormat.duration(UInt64(maxValue)))</text><text x=\"4\" y=\"\(Int(height - bottom))\">0</text>"
        svg += "<text x=\"\(Int(width / 2 - 40))\" y=\"\(Int(height - 1))\">percentile (log 1/(1−p))</text></svg>"
        return svg
    }

    /// Each sampled operation's latency at its completion time.
    static func seriesPlot(_ summary: LatencySummary, clock: String) -> String {
        let width = 480.0, height = 240.0, left = 50.0, bottom = 30.0
        guard let maxTime = summary.series.map({ $0[0] }).max(), let maxValue = summary.series.map({ $0[1] }).max(), maxValue > 0 else { return "" }
        let minTime = summary.series.map { $0[0] }.min() ?? 0
        let span = Double(max(1, maxTime - minTime))
        var svg = "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        for point in summary.series {
            let px = left + (width - left - 10) * Double(point[0] - minTime) / span
            let py = height - bottom - (height - bottom - 10) * Double(point[1]) / Double(maxValue)
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#bf3989\"/>", px, py)
        }
        svg += "<text x=\"4\" y=\"14\">\(ReportFormat.duration(maxValue))</text>"
        svg += "<text x=\"\(Int(left))\" y=\"\(Int(height - 4))\">\(ReportFormat.duration(minTime))</text>"
        svg += "<text x=\"\(Int(width - 70))\" y=\"\(Int(height - 4))\">\(ReportFormat.duration(maxTime))</text>"
        svg += "<text x=\"\(Int(width / 2 - 50))\" y=\"\(Int(height - 16))\">latency over \(clock == "wall" ? "wall-clock" : "virtual") time</text></svg>"
        return svg
    }

    /// One lane per user, a tick per event (hover for the event text).
    static func timelinePlot(_ timeline: [TimelineEntry]) -> String {
        let users = Array(Set(timeline.map(\.user))).sorted()
        let width = 1000.0, lane = 22.0, left = 140.0
        let height = lane * Double(users.count) + 30
        let minTime = timeline.map(\.timeNanoseconds).min() ?? 0
        let span = Double(max(1, (timeline.map(\.timeNanoseconds).max() ?? 0) - minTime))
        var svg = "<svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">"
        for (index, user) in users.enumerated() {
            let y = 18 + lane * Double(index)
            svg += "<text x=\"4\" y=\"\(Int(y + 4))\">\(ReportFormat.html(user))</text><line x1=\"\(Int(left))\" x2=\"\(Int(width - 10))\" y1=\"\(Int(y))\" y2=\"\(Int(y))\" stroke=\"#eee\"/>"
        }
        for entry in timeline {
            guard let index = users.firstIndex(of: entry.user) else { continue }
            let x = left + (width - left - 10) * Double(entry.timeNanoseconds - minTime) / span
            let y = 18 + lane * Double(index)
            let color = entry.event.contains("fail") || entry.event.contains("error") ? "#cf222e" : "#0969da"
            svg += String(format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"3\" height=\"12\" ", x, y - 6)
                + "fill=\"\(color)\"><title>\(ReportFormat.duration(entry.timeNanoseconds)) \(ReportFormat.html(entry.event))</title></rect>"
        }
        svg += "<text x=\"\(Int(left))\" y=\"\(Int(height - 4))\">\(ReportFormat.duration(minTime))</text><text x=\"\(Int(width - 80))\" y=\"\(Int(height - 4))\">\(ReportFormat.duration(minTime + UInt64(span)))</text></svg>"
        return svg
    }
}
