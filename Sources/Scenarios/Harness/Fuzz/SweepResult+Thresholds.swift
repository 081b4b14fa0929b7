import Histogram

extension SweepResult {
    /// The value of `statistic` for `operation` over every seed of the result (its merged
    /// HdrHistogram, µs, scaled to nanoseconds; percentiles and `max` are the tops of their
    /// buckets, as the canonical histogram a file holds gives them), or nil
    /// when no seed recorded the operation.
    package func latencyNanoseconds(_ operation: String, _ statistic: Threshold.Statistic) -> UInt64? {
        guard let histogram = latency.first(where: { $0.operation == operation })?.histogram, histogram.totalCount > 0 else { return nil }
        let microseconds: UInt64
        switch statistic {
        case .p50: microseconds = OperationLatency.percentile(50, of: histogram)
        case .p90: microseconds = OperationLatency.percentile(90, of: histogram)
        case .p99: microseconds = OperationLatency.percentile(99, of: histogram)
        case .p999: microseconds = OperationLatency.percentile(99.9, of: histogram)
        case .max: microseconds = histogram.max
        case .mean: microseconds = UInt64(histogram.mean.rounded())
        }
        return microseconds.multipliedReportingOverflow(by: 1_000).overflow ? .max : microseconds * 1_000
    }

    /// `thresholds` judged over the whole (merged) sweep; an operation no seed recorded misses
    /// its threshold ("no samples"), as in a single run.
    package func evaluate(_ thresholds: [Threshold]) -> [RunReport.ThresholdResult] {
        thresholds.map { threshold in
            let observed = latencyNanoseconds(threshold.operation, threshold.statistic)
            return RunReport.ThresholdResult(expression: threshold.expression, observedNanoseconds: observed, passed: observed.map(threshold.isMet(by:)) ?? false)
        }
    }
}
