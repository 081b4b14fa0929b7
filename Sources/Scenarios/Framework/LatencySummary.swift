import Foundation
import Histogram
import Synchronization

/// One operation's latency in virtual time: HdrHistogram percentiles, the full percentile
/// spectrum in HdrHistogram's text format, an exemplar per percentile and a series over time.
public struct LatencySummary: Sendable, Hashable, Codable {
    /// The operation at a percentile that a replay of `seed` reproduces (ends at `step`).
    public struct Exemplar: Sendable, Hashable, Codable {
        public let percentile: String
        public let latencyNanoseconds: UInt64
        public let seed: UInt64
        public let step: UInt64
        public let user: String
        public let intendedStartNanoseconds: UInt64
        public let endNanoseconds: UInt64
    }

    public let operation: String
    public let count: Int
    public var p50Nanoseconds: UInt64 { details.p50Nanoseconds }
    public var p90Nanoseconds: UInt64 { details.p90Nanoseconds }
    public var p99Nanoseconds: UInt64 { details.p99Nanoseconds }
    public var p999Nanoseconds: UInt64 { details.p999Nanoseconds }
    public var maxNanoseconds: UInt64 { details.maxNanoseconds }
    public var meanNanoseconds: UInt64 { details.meanNanoseconds }
    public var exemplars: [Exemplar] { details.exemplars }
    /// HdrHistogram `outputPercentileDistribution` text, values in milliseconds.
    public var spectrum: String { details.spectrum }
    /// (end time, latency) pairs in nanoseconds, evenly thinned to at most `maxSeriesPoints`.
    public var series: [[UInt64]] { details.series }
    /// (percentile, latency ns) points of the spectrum, for plots.
    public var spectrumPoints: [[Double]] { details.spectrumPoints }

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
    public init(operation: String, samples: [LatencySample], seed: UInt64) {
        precondition(!samples.isEmpty, "no samples for \(operation)")
        precondition(samples.allSatisfy { $0.operation == operation }, "mixed operations")
        self.operation = operation
        self.count = samples.count
        self.storage = Storage(samples: samples, seed: seed)
    }

    public init(from decoder: any Decoder) throws {
        let details = try Details(from: decoder)
        self.operation = details.operation
        self.count = details.count
        self.storage = Storage(details: details)
    }

    public func encode(to encoder: any Encoder) throws { try details.encode(to: encoder) }

    public static func == (a: LatencySummary, b: LatencySummary) -> Bool {
        a.operation == b.operation && a.count == b.count && (a.storage === b.storage || a.details == b.details)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(details) }

    /// The value of `statistic`, in nanoseconds.
    public func value(of statistic: Threshold.Statistic) -> UInt64 {
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
    /// Summarises `samples` (all of one operation, not empty) of a run of `seed`.
    init(operation: String, samples: [LatencySample], seed: UInt64) {
        precondition(samples.allSatisfy { $0.operation == operation }, "mixed operations")
        // Microsecond resolution, 3 significant digits, auto-resized for hours-long timelines.
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        for sample in samples { _ = histogram.record(max(1, sample.latencyNanoseconds / 1_000)) }
        func nanoseconds(_ percentile: Double) -> UInt64 { histogram.valueAtPercentile(percentile) * 1_000 }
        self.operation = operation
        self.count = samples.count
        self.p50Nanoseconds = nanoseconds(50)
        self.p90Nanoseconds = nanoseconds(90)
        self.p99Nanoseconds = nanoseconds(99)
        self.p999Nanoseconds = nanoseconds(99.9)
        self.maxNanoseconds = samples.map(\.latencyNanoseconds).max()!
        self.meanNanoseconds = UInt64(histogram.mean * 1_000)
        let sorted = samples.sorted { ($0.latencyNanoseconds, $0.step) < ($1.latencyNanoseconds, $1.step) }
        self.exemplars = [("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p99.9", 99.9), ("max", 100.0)].map { name, percentile in
            let rank = Int((percentile / 100 * Double(sorted.count)).rounded(.up))
            let sample = sorted[min(sorted.count - 1, max(0, rank - 1))]
            return LatencySummary.Exemplar(
                percentile: name, latencyNanoseconds: sample.latencyNanoseconds, seed: seed, step: sample.step, user: sample.user,
                intendedStartNanoseconds: sample.intendedStartNanoseconds, endNanoseconds: sample.endNanoseconds)
        }
        var text = ""
        histogram.outputPercentileDistribution(to: &text, outputValueUnitScalingRatio: 1_000)
        self.spectrum = text
        var points: [[Double]] = []
        for value in histogram.percentiles(ticksPerHalfDistance: 5) {
            points.append([value.percentileLevelIteratedTo, Double(value.value) * 1_000])
        }
        self.spectrumPoints = points
        let byTime = samples.sorted { ($0.endNanoseconds, $0.step) < ($1.endNanoseconds, $1.step) }
        let stride = max(1, (byTime.count + ScenarioLimits.maxSeriesPoints - 1) / ScenarioLimits.maxSeriesPoints)
        self.series = Swift.stride(from: 0, to: byTime.count, by: stride).map { [byTime[$0].endNanoseconds, byTime[$0].latencyNanoseconds] }
    }
}
