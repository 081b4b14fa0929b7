import Histogram

extension SweepResult {
    /// The value of `statistic` for `operation` over every seed of the result (its merged
    /// HdrHistogram, µs, scaled to nanoseconds; `max` is the top of the maximum's bucket), or nil
    /// when no seed recorded the operation.
    public func latencyNanoseconds(_ operation: String, _ statistic: Threshold.Statistic) -> UInt64? {
        guard let histogram = latency.first(where: { $0.operation == operation })?.histogram, histogram.totalCount > 0 else { return nil }
        let microseconds: UInt64
        switch statistic {
        case .p50: microseconds = histogram.valueAtPercentile(50)
        case .p90: microseconds = histogram.valueAtPercentile(90)
        case .p99: microseconds = histogram.valueAtPercentile(99)
        case .p999: microseconds = histogram.valueAtPercentile(99.9)
        case .max: microseconds = histogram.max
        case .mean: microseconds = UInt64(histogram.mean.rounded())
        }
        return microseconds.multipliedReportingOverflow(by: 1_000).overflow ? .max : microseconds * 1_000
    }

    /// `thresholds` judged over the whole (merged) sweep; an operation no seed recorded misses
    /// its threshold ("no samples"), as in a single run.
    public func evaluate(_ thresholds: [Threshold]) -> [RunReport.ThresholdResult] {
        thresholds.map { threshold in
            let observed = latencyNanoseconds(threshold.operation, threshold.statistic)
            return RunReport.ThresholdResult(expression: threshold.expression, observedNanoseconds: observed, passed: observed.map(threshold.isMet(by:)) ?? false)
        }
    }
}
