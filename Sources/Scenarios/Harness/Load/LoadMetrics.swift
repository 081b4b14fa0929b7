import Histogram
import Synchronization

/// What a load run measures, in memory that does not grow with the arrivals: per operation an
/// HdrHistogram (µs, 3 significant digits), exact count, sum and maximum (with the maximum's
/// operation as exemplar), failures, and a latency-over-time series of fixed size (the fastest and
/// slowest completion in each of `maxSeriesPoints / 2` equal stretches of the run); plus the
/// executor's counters (started, completed, dropped, iterations in flight and their peak).
final class LoadMetrics: Sendable {
    struct Operation {
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var count = 0
        var failed = 0
        var sumNanoseconds = 0.0
        var max: (latency: UInt64, intended: UInt64, end: UInt64, sequence: UInt64) = (0, 0, 0, 0)
        /// Per stretch of the run: (end, latency) of its fastest and slowest completion.
        var fastest: [(end: UInt64, latency: UInt64)?]
        var slowest: [(end: UInt64, latency: UInt64)?]

        init(stretches: Int) {
            fastest = Array(repeating: nil, count: stretches)
            slowest = Array(repeating: nil, count: stretches)
        }

        mutating func add(latency: UInt64, intended: UInt64, end: UInt64, failed: Bool, sequence: UInt64, stretch index: Int) {
            _ = histogram.record(Swift.max(1, latency / 1_000))
            count += 1
            if failed { self.failed += 1 }
            sumNanoseconds += Double(latency)
            if latency > max.latency || count == 1 { max = (latency, intended, end, sequence) }
            if fastest[index].map({ latency < $0.latency }) ?? true { fastest[index] = (end, latency) }
            if slowest[index].map({ latency > $0.latency }) ?? true { slowest[index] = (end, latency) }
        }
    }

    struct State {
        var operations: [String: Operation] = [:]
        var sequence: UInt64 = 0
        var started = 0
        var completed = 0
        var dropped = 0
        var inFlight = 0
        var peakInFlight = 0
        /// When the last iteration ended (ns from the start).
        var lastEnd: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Length of one series stretch, in ns.
    private let stretch: UInt64
    private let stretches = ScenarioLimits.maxSeriesPoints / 2

    /// `span` is how long the run can last (duration plus graceful stop), for the series' stretches.
    init(span: UInt64) {
        stretch = Swift.max(1, span / UInt64(stretches) + 1)
    }

    /// An iteration starts (`inFlight` + 1).
    func started() {
        state.withLock {
            $0.started += 1
            $0.inFlight += 1
            $0.peakInFlight = Swift.max($0.peakInFlight, $0.inFlight)
        }
    }

    /// An iteration ends at `time` (ns from the start).
    func completed(at time: UInt64) {
        state.withLock {
            $0.completed += 1
            $0.inFlight -= 1
            $0.lastEnd = Swift.max($0.lastEnd, time)
        }
    }

    /// An arrival found `maxVUs` iterations running and was not started (k6's dropped_iterations).
    func dropped() { state.withLock { $0.dropped += 1 } }

    /// Iterations running now.
    var inFlight: Int { state.withLock { $0.inFlight } }

    /// `operation` intended to start at `intended` ended at `end` (ns from the run's start).
    func record(_ operation: String, intended: UInt64, end: UInt64, failed: Bool) {
        let end = Swift.max(end, intended)
        let latency = end - intended
        let index = Swift.min(stretches - 1, Int(end / stretch))
        state.withLock { state in
            state.sequence += 1
            state.operations[operation, default: Operation(stretches: stretches)]
                .add(latency: latency, intended: intended, end: end, failed: failed, sequence: state.sequence, stretch: index)
        }
    }

    /// Everything measured so far.
    var snapshot: State { state.withLock { $0 } }
}
