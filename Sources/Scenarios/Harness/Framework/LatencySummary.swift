import Foundation
import Synchronization

/// One operation's latency in virtual time: exact percentiles (nearest rank), the full percentile
/// spectrum in HdrHistogram's text format (exact values at HdrHistogram's ticks), an exemplar per percentile and a series over time.
public struct LatencySummary: Sendable, Hashable, Codable {
    /// The operation at a percentile that a replay of `seed` reproduces (ends at `step`).
    package struct Exemplar: Sendable, Hashable, Codable {
        /// The percentile it stands for ("p99", "max").
        package let percentile: String
        /// Its latency.
        package let latencyNanoseconds: UInt64
        /// The seed that produced it.
        package let seed: UInt64
        /// The kernel step at which it ended.
        package let step: UInt64
        /// The user who ran it.
        package let user: String
        /// When it should have started (its arrival), virtual ns.
        package let intendedStartNanoseconds: UInt64
        /// When it ended, virtual ns.
        package let endNanoseconds: UInt64
    }

    /// The operation measured.
    public let operation: String
    /// Samples of it.
    public let count: Int
    /// Median latency.
    package var p50Nanoseconds: UInt64 { details.p50Nanoseconds }
    /// 90th percentile.
    package var p90Nanoseconds: UInt64 { details.p90Nanoseconds }
    /// 99th percentile.
    package var p99Nanoseconds: UInt64 { details.p99Nanoseconds }
    /// 99.9th percentile.
    package var p999Nanoseconds: UInt64 { details.p999Nanoseconds }
    /// Slowest sample.
    package var maxNanoseconds: UInt64 { details.maxNanoseconds }
    /// Mean latency, rounded.
    package var meanNanoseconds: UInt64 { details.meanNanoseconds }
    /// One replayable operation per percentile.
    package var exemplars: [Exemplar] { details.exemplars }
    /// HdrHistogram `outputPercentileDistribution` text, values in milliseconds.
    package var spectrum: String { details.spectrum }
    /// (end time, latency) pairs in nanoseconds, at most `maxSeriesPoints`, thinned keeping each
    /// stretch's fastest and slowest (the maximum is always there).
    package var series: [[UInt64]] { details.series }
    /// (percentile, latency ns) points of the spectrum, for plots.
    package var spectrumPoints: [[Double]] { details.spectrumPoints }

    /// Everything a report shows of one operation (the encoded form of a summary).
    struct Details: Sendable, Hashable, Codable {
        let operation: String
        let count: Int
        let p50Nanoseconds: UInt64
        let p90Nanoseconds: UInt64
        let p99Nanoseconds: UInt64
        let p999Nanoseconds: UInt64
        let maxNanoseconds: UInt64
        let meanNanoseconds: UInt64
        let exemplars: [LatencySummary.Exemplar]
        let spectrum: String
        let series: [[UInt64]]
        let spectrumPoints: [[Double]]
    }

    /// The details, computed on first use: percentile spectra, exemplars and series cost about as
    /// much as the simulation itself, and most runs (sweeps, zoo, bench) never read them.
    final class Storage: Sendable {
        private let state: Mutex<(samples: [LatencySample], seed: UInt64, details: Details?)>
        init(samples: [LatencySample], seed: UInt64) { state = Mutex((samples, seed, nil)) }
        init(details: Details) { state = Mutex(([], 0, details)) }
        var details: Details {
            state.withLock { state in
                if let details = state.details { return details }
                let details = Details(operation: state.samples[0].operation, samples: state.samples, seed: state.seed)
                state.details = details
                state.samples = []
                return details
            }
        }
    }
    private let storage: Storage
    var details: Details { storage.details }

    /// Summarises `samples` (all of one operation) of a run of `seed`; the percentile spectrum,
    /// exemplars and series are computed when first read.
    package init(operation: String, samples: [LatencySample], seed: UInt64) {
        precondition(!samples.isEmpty, "no samples for \(operation)")
        precondition(samples.allSatisfy { $0.operation == operation }, "mixed operations")
        self.operation = operation
        self.count = samples.count
        self.storage = Storage(samples: samples, seed: seed)
    }

    /// A summary whose details are already computed (load runs: from histograms).
    init(details: Details) {
        self.operation = details.operation
        self.count = details.count
        self.storage = Storage(details: details)
    }

    /// Reads a summary as a report stores it.
    public init(from decoder: any Decoder) throws {
        let details = try Details(from: decoder)
        self.operation = details.operation
        self.count = details.count
        self.storage = Storage(details: details)
    }

    /// Writes every field, spectrum and series included.
    public func encode(to encoder: any Encoder) throws { try details.encode(to: encoder) }

    /// Equal operation, count and details.
    public static func == (a: LatencySummary, b: LatencySummary) -> Bool {
        a.operation == b.operation && a.count == b.count && (a.storage === b.storage || a.details == b.details)
    }

    /// Hashes the details.
    public func hash(into hasher: inout Hasher) { hasher.combine(details) }

    /// The value of `statistic`, in nanoseconds.
    package func value(of statistic: Threshold.Statistic) -> UInt64 {
        switch statistic {
        case .p50: p50Nanoseconds
        case .p90: p90Nanoseconds
        case .p99: p99Nanoseconds
        case .p999: p999Nanoseconds
        case .max: maxNanoseconds
        case .mean: meanNanoseconds
        }
    }
}

extension LatencySummary.Details {
    /// Summarises `samples` (all of one operation, not empty) of a run of `seed`. Every number —
    /// the table's percentiles, max and mean, the spectrum, its plot points and the exemplars —
    /// comes from the same sorted samples (nearest rank: the value at percentile p is the
    /// ⌈p·n/100⌉-th smallest), so the table and the spectrum agree to the microsecond. (They were
    /// HdrHistogram bucket values, whose max is the top of the max's bucket and whose mean uses
    /// bucket midpoints: placeBid's table max 3,265.412 ms against its spectrum's 3,266.559 ms, a
    /// buyNow mean above its max.) A sweep, which merges seeds, keeps HdrHistogram's buckets.
    init(operation: String, samples: [LatencySample], seed: UInt64) {
        precondition(samples.allSatisfy { $0.operation == operation }, "mixed operations")
        let sorted = samples.sorted { ($0.latencyNanoseconds, $0.step) < ($1.latencyNanoseconds, $1.step) }
        func rank(_ percentile: Double) -> Int {
            min(sorted.count, max(1, Int((percentile / 100 * Double(sorted.count)).rounded(.up))))
        }
        func nanoseconds(_ percentile: Double) -> UInt64 { sorted[rank(percentile) - 1].latencyNanoseconds }
        self.operation = operation
        self.count = samples.count
        self.p50Nanoseconds = nanoseconds(50)
        self.p90Nanoseconds = nanoseconds(90)
        self.p99Nanoseconds = nanoseconds(99)
        self.p999Nanoseconds = nanoseconds(99.9)
        self.maxNanoseconds = sorted.last!.latencyNanoseconds
        let total = sorted.reduce(0.0) { $0 + Double($1.latencyNanoseconds) }
        let mean = total / Double(sorted.count)
        self.meanNanoseconds = UInt64(mean.rounded())
        self.exemplars = [("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99.9", 99.9), ("max", 100.0)].map { name, percentile in
            let sample = sorted[rank(percentile) - 1]
            return LatencySummary.Exemplar(
                percentile: name, latencyNanoseconds: sample.latencyNanoseconds, seed: seed, step: sample.step, user: sample.user,
                intendedStartNanoseconds: sample.intendedStartNanoseconds, endNanoseconds: sample.endNanoseconds)
        }
        // HdrHistogram's percentile ticks (5 per halving of the distance to 100 %), exact values.
        var points: [[Double]] = []
        var text = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
        var percentile = 0.0
        repeat {
            let r = rank(percentile)
            let value = Double(sorted[r - 1].latencyNanoseconds)
            points.append([percentile, value])
            text += String(format: "%12.3f %2.12f %10d %14.2f\n", value / 1e6, percentile / 100, r, 1 / (1 - percentile / 100))
            let ticks = 5 * pow(2, (log2(100 / (100 - percentile))).rounded(.down) + 1)
            percentile += 100 / ticks
        } while rank(percentile) < sorted.count
        points.append([100, Double(maxNanoseconds)])
        text += String(format: "%12.3f %2.12f %10d\n", Double(maxNanoseconds) / 1e6, 1.0, sorted.count)
        let variance = sorted.reduce(0.0) { $0 + pow(Double($1.latencyNanoseconds) - mean, 2) } / Double(sorted.count)
        text += String(format: "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n", mean / 1e6, variance.squareRoot() / 1e6)
        text += String(format: "#[Max     = %12.3f, Total count    = %12d]\n", Double(maxNanoseconds) / 1e6, sorted.count)
        // The layout of the 3-digit µs HdrHistogram that would hold these samples (2048 sub-buckets,
        // buckets doubling until the maximum fits), so the footer reads as every .hgrm's does.
        var buckets = 1, reach: UInt64 = 2_048
        while reach <= maxNanoseconds / 1_000 { reach <<= 1; buckets += 1 }
        text += String(format: "#[Buckets = %12d, SubBuckets     = %12d]\n", buckets, 2_048)
        self.spectrum = text
        self.spectrumPoints = points
        self.series = Self.thinned(samples)
    }

    /// (end, latency) pairs in completion order, at most `ScenarioLimits.maxSeriesPoints`: in
    /// each of (limit / 2) equal runs of consecutive samples the fastest and the slowest, so the
    /// extremes — the worst point above all — are always drawn (an even stride once dropped the
    /// worst: a plot topping at 32m24s of a 41m55s maximum).
    static func thinned(_ samples: [LatencySample]) -> [[UInt64]] {
        let byTime = samples.sorted { ($0.endNanoseconds, $0.step) < ($1.endNanoseconds, $1.step) }
        let limit = ScenarioLimits.maxSeriesPoints
        guard byTime.count > limit else { return byTime.map { [$0.endNanoseconds, $0.latencyNanoseconds] } }
        let runs = limit / 2
        var points: [[UInt64]] = []
        for run in 0..<runs {
            let low = byTime.count * run / runs, high = byTime.count * (run + 1) / runs
            guard low < high else { continue }
            let part = byTime[low..<high]
            let fastest = part.indices.min { (part[$0].latencyNanoseconds, $0) < (part[$1].latencyNanoseconds, $1) }!
            let slowest = part.indices.max { (part[$0].latencyNanoseconds, -$0) < (part[$1].latencyNanoseconds, -$1) }!
            for index in Set([fastest, slowest]).sorted() { points.append([byTime[index].endNanoseconds, byTime[index].latencyNanoseconds]) }
        }
        return points
    }
}
