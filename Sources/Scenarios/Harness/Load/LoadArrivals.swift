/// The open model's arrival instants, one at a time (nothing grows with the arrivals): arrival
/// n (from 0) is due when the area under the piecewise-linear rate reaches n. Within a segment
/// of rate r₀ and slope s that means r₀·τ + s·τ²/2 = m, solved as τ = 2m / (r₀ + √(r₀² + 2sm)),
/// which is stable for ramps up, ramps down and constant rates alike.
struct LoadArrivals: Sendable {
    private let segments: [LoadSegment]
    private var segment = 0
    /// Arrivals before the current segment (its area's start).
    private var before = 0.0
    /// The next arrival's number.
    private(set) var index = 0

    init(_ executor: LoadExecutor) {
        precondition(executor.isOpen, "arrivals belong to the arrival-rate executors")
        segments = executor.segments
    }

    /// The next arrival's instant in ns from the start, nil once the shape has ended.
    mutating func next() -> UInt64? {
        let n = Double(index)
        while segment < segments.count && n >= before + segments[segment].arrivals {
            before += segments[segment].arrivals
            segment += 1
        }
        guard segment < segments.count else { return nil }
        let current = segments[segment]
        let m = n - before
        let seconds = Double(current.length) / 1e9
        let slope = seconds > 0 ? (current.to - current.from) / seconds : 0
        let root = (current.from * current.from + 2 * slope * m).squareRoot()
        let tau = m == 0 ? 0 : 2 * m / (current.from + root)
        index += 1
        return min(current.end, current.start + UInt64((tau * 1e9).rounded(.down)))
    }
}

/// When the closed model's VU number `vu` (from 0) is active: while the piecewise-linear VU
/// count, rounded down, exceeds `vu`.
struct LoadVUSchedule: Sendable {
    let segments: [LoadSegment]
    let end: UInt64

    init(_ executor: LoadExecutor) {
        precondition(!executor.isOpen, "VU schedules belong to the VU executors")
        segments = executor.segments
        end = segments.last?.end ?? 0
    }

    /// The first instant at or after `time` when `vu` is active, nil if never again before the end.
    func activation(of vu: Int, from time: UInt64) -> UInt64? {
        let needed = Double(vu + 1)
        for segment in segments where segment.end > time {
            let low = max(segment.start, time)
            if segment.value(at: low) >= needed { return low }
            guard segment.to >= needed, segment.to > segment.from else { continue }
            let fraction = (needed - segment.from) / (segment.to - segment.from)
            let at = segment.start + UInt64((fraction * Double(segment.length)).rounded(.up))
            if at < segment.end { return max(at, low) }
        }
        return nil
    }
}
