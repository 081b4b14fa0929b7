import Histogram

/// HdrHistogram's percentile-distribution text (`.hgrm`, what `outputPercentileDistribution`
/// prints and HdrHistogram's plotter and HistogramLogAnalyzer load): a header
/// `Value Percentile TotalCount 1/(1-Percentile)`, one row per percentile step, and the footer
/// `#[Mean …, StdDeviation …]`, `#[Max …, Total count …]`, `#[Buckets …, SubBuckets …]`.
/// Values are in milliseconds.
package enum HgrmFile {
    /// The file name of `operation`'s distribution: `<operation>.hgrm`, characters outside
    /// letters, digits, `.`, `-` and `_` replaced by `_`.
    package static func fileName(_ operation: String) -> String {
        let safe = operation.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_" }
        let name = String(safe)
        return (name.isEmpty || name.hasPrefix(".") ? "_" + name : name) + ".hgrm"
    }

    /// The distribution of a histogram of microseconds, in milliseconds (5 steps per half distance).
    package static func text(microseconds histogram: Histogram<UInt64>) -> String {
        var text = ""
        histogram.outputPercentileDistribution(to: &text, outputValueUnitScalingRatio: 1_000)
        return text
    }

    /// Writes `<directory>/<operation>.hgrm` for every operation of `latency` (the summary's
    /// spectrum, already in milliseconds) and returns the paths.
    @discardableResult
    package static func write(_ latency: [LatencySummary], to directory: String) throws(ReportWriteError) -> [String] {
        var paths: [String] = []
        for summary in latency {
            let path = "\(directory)/\(fileName(summary.operation))"
            try ReportWriter.writeAtomically(summary.spectrum, to: path)
            paths.append(path)
        }
        return paths
    }
}
