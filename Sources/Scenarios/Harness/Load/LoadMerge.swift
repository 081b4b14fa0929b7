import Histogram

/// One load report from the reports of a complete set of shards (`rehearse load … --shard i/n`,
/// then `rehearse merge`): counts added, histograms added (so every percentile is the one a single
/// machine measuring all the iterations would report), thresholds judged on the merged numbers.
package enum LoadMerge {
    /// Why a set of reports cannot be merged: one line naming the problem.
    package struct Refusal: Error, CustomStringConvertible {
        package let description: String
    }

    /// Whether `report` is a load run's.
    package static func isLoadReport(_ report: RunReport) -> Bool { report.load != nil }

    /// The merged report of `reports`, which must be every share of one sharded load run.
    package static func merge(_ reports: [RunReport], thresholds: [Threshold]) throws(Refusal) -> RunReport {
        let loads = try check(reports)
        let first = reports[0]
        var summary = loads[0]
        summary.iterationsStarted = loads.map(\.iterationsStarted).reduce(0, +)
        summary.iterationsCompleted = loads.map(\.iterationsCompleted).reduce(0, +)
        summary.achievedRatePerSecond = loads.map(\.achievedRatePerSecond).reduce(0, +)
        summary.elapsedNanoseconds = loads.map(\.elapsedNanoseconds).max() ?? 0
        summary.throughputPerSecond = summary.elapsedNanoseconds == 0 ? 0 : Double(summary.iterationsCompleted) / (Double(summary.elapsedNanoseconds) / 1e9)
        summary.errors = loads.reduce(into: [:]) { errors, load in errors.merge(load.errors, uniquingKeysWith: +) }
        summary.droppedIterations = loads.map(\.droppedIterations).reduce(0, +)
        summary.maxVUs = loads.map(\.maxVUs).reduce(0, +)
        summary.peakInFlight = loads.map(\.peakInFlight).reduce(0, +)
        summary.abandoned = loads.map(\.abandoned).reduce(0, +)
        summary.cores = loads.map(\.cores).reduce(0, +)
        summary.setupNanoseconds = loads.compactMap(\.setupNanoseconds).max()
        summary.serverNotes = loads.contains { $0.serverNotes != nil } ? loads.flatMap { $0.serverNotes ?? [] } : nil
        summary.shard = nil
        summary.mergedShards = reports.count
        var histograms: [String: Histogram<UInt64>] = [:]
        for load in loads {
            for (operation, text) in load.histograms ?? [:] {
                let histogram: Histogram<UInt64>
                do { histogram = try HdrHistogramCodec.decode(text) } catch {
                    throw Refusal(description: "shard \(load.shard ?? "?"): histogram of \(operation): \(error.description)")
                }
                if histograms[operation] == nil { histograms[operation] = histogram } else { histograms[operation]!.add(histogram) }
            }
        }
        summary.histograms = histograms.mapValues(HdrHistogramCodec.encode)
        let latency = histograms.keys.sorted().map { operation in
            LatencySummary(operation: operation, histogram: histograms[operation]!, shards: reports.compactMap { $0.latency.first { $0.operation == operation } })
        }
        return report(first, summary: summary, latency: latency, thresholds: thresholds, shards: reports)
    }

    /// The shards' load summaries, once each share of one run is there exactly once.
    private static func check(_ reports: [RunReport]) throws(Refusal) -> [LoadSummary] {
        guard let first = reports.first, let load = first.load else { throw Refusal(description: "no load report to merge") }
        guard let shard = load.shard, let count = Int(shard.split(separator: "/").last ?? "") else {
            throw Refusal(description: "\(first.runId) is not a shard (run it with --shard i/n)")
        }
        var seen = Set<Int>()
        var loads: [LoadSummary] = []
        for report in reports {
            guard let other = report.load, let share = other.shard, other.histograms != nil else {
                throw Refusal(description: "\(report.runId) is not a shard's load report (run it with --shard i/n)")
            }
            let parts = share.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] == count else { throw Refusal(description: "\(report.runId) is shard \(share), not one of \(count)") }
            guard report.scenario == first.scenario, report.variant == first.variant, other.description == load.description,
                  report.clock == first.clock else {
                throw Refusal(description: "\(report.runId) is not a share of the same run as \(first.runId) (scenario, variant, executor and clock must match)")
            }
            guard seen.insert(parts[0]).inserted else { throw Refusal(description: "shard \(share) is given twice") }
            loads.append(other)
        }
        let missing = (0..<count).filter { !seen.contains($0) }
        guard missing.isEmpty else { throw Refusal(description: "shards missing: \(missing.map { "\($0)/\(count)" }.joined(separator: ", "))") }
        return loads
    }

    /// The merged run's report: the first shard's identity, the merged numbers, the thresholds
    /// judged on them, failed if any shard failed.
    private static func report(_ first: RunReport, summary: LoadSummary, latency: [LatencySummary], thresholds: [Threshold], shards: [RunReport]) -> RunReport {
        var report = first
        report.runId = first.runId.replacingOccurrences(of: "-shard-\(first.load?.shard?.replacingOccurrences(of: "/", with: "-of-") ?? "")", with: "-merged")
        report.load = summary
        report.latency = latency
        report.steps = UInt64(summary.iterationsCompleted)
        report.traceHash = "none"  // each shard has its own
        report.virtualNanoseconds = summary.elapsedNanoseconds
        report.thresholds = thresholds.map { threshold in
            let observed = latency.first { $0.operation == threshold.operation }?.value(of: threshold.statistic)
            return RunReport.ThresholdResult(expression: threshold.expression, observedNanoseconds: observed, passed: observed.map(threshold.isMet(by:)) ?? false)
        }
        // A shard's own thresholds judged its share only; the merged ones are judged here.
        let failedShard = shards.first { !$0.passed && $0.failure?.kind != .threshold }
        let missed = report.thresholds.first { !$0.passed }
        report.passed = failedShard == nil && missed == nil
        if let failedShard {
            report.failure = .init(kind: failedShard.failure?.kind ?? .load, message: "shard \(failedShard.load?.shard ?? "?"): \(failedShard.failure?.message ?? "failed")")
        } else if let missed {
            let observed = missed.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            report.failure = .init(kind: .threshold, message: "threshold \(missed.expression) missed over the merged shards (observed \(observed))")
        } else {
            report.failure = nil
        }
        report.outcomeDetail = "\(summary.iterationsCompleted) iterations over \(shards.count) shards (\(summary.description)); "
            + "offered \(String(format: "%.1f", summary.achievedRatePerSecond))/s, throughput \(String(format: "%.1f", summary.throughputPerSecond))/s; "
            + "\(summary.droppedIterations) dropped, \(summary.errors.values.reduce(0, +)) failed operations"
        return report
    }
}

extension LatencySummary {
    /// An operation's summary over shards: percentiles from the added histogram (µs), the count
    /// and mean over all, the largest maximum with its exemplar, the shards' series in time order.
    init(operation: String, histogram: Histogram<UInt64>, shards: [LatencySummary]) {
        let count = shards.map(\.count).reduce(0, +)
        let slowest = shards.max { $0.maxNanoseconds < $1.maxNanoseconds }
        let maximum = slowest?.maxNanoseconds ?? 0
        func nanoseconds(_ percentile: Double) -> UInt64 { Swift.min(maximum, histogram.valueAtPercentile(percentile) * 1_000) }
        let points = histogram.percentiles(ticksPerHalfDistance: 5).map { [$0.percentile, Double(Swift.min(maximum, $0.value * 1_000))] }
        let mean = count == 0 ? 0 : shards.map { Double($0.meanNanoseconds) * Double($0.count) }.reduce(0, +) / Double(count)
        let details = Details(
            operation: operation, count: count,
            p50Nanoseconds: nanoseconds(50), p90Nanoseconds: nanoseconds(90), p99Nanoseconds: nanoseconds(99),
            p999Nanoseconds: nanoseconds(99.9), maxNanoseconds: maximum, meanNanoseconds: UInt64(mean.rounded()),
            exemplars: slowest?.exemplars ?? [], spectrum: HgrmFile.text(microseconds: histogram),
            series: shards.flatMap(\.series).sorted { ($0.first ?? 0, $0.last ?? 0) < ($1.first ?? 0, $1.last ?? 0) }, spectrumPoints: points)
        self.init(details: details)
    }
}
