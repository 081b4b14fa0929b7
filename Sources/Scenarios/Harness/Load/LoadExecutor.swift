/// How a load run generates iterations: k6's executor shapes (https://grafana.com/docs/k6/latest/using-k6/scenarios/executors/).
///
/// The arrival-rate executors are the **open model**: iterations start at their scheduled
/// instants whether or not earlier ones finished, latency is timed from that intended start, and
/// an arrival that finds `maxVUs` iterations running is dropped and counted (k6's
/// `dropped_iterations`). The VU executors are the **closed model**: each virtual user loops
/// iteration → think time, so throughput is whatever the system allows.
package enum LoadExecutor: Sendable, Hashable, CustomStringConvertible {
    /// `constant-arrival-rate`: `rate` iterations per second for `duration`.
    case constantArrivalRate(rate: Double, duration: Duration)
    /// `ramping-arrival-rate`: from `startRate`/s, linearly to each stage's target over its duration.
    case rampingArrivalRate(startRate: Double, stages: [LoadStage])
    /// `constant-vus`: `vus` virtual users looping for `duration`.
    case constantVUs(vus: Int, duration: Duration)
    /// `ramping-vus`: from `startVUs`, linearly to each stage's target (VUs above the target stop
    /// after their current iteration, k6's graceful ramp-down).
    case rampingVUs(startVUs: Int, stages: [LoadStage])

    /// k6's name of the executor.
    package var name: String {
        switch self {
        case .constantArrivalRate: "constant-arrival-rate"
        case .rampingArrivalRate: "ramping-arrival-rate"
        case .constantVUs: "constant-vus"
        case .rampingVUs: "ramping-vus"
        }
    }

    /// True for the arrival-rate (open-model) executors.
    package var isOpen: Bool {
        switch self {
        case .constantArrivalRate, .rampingArrivalRate: true
        case .constantVUs, .rampingVUs: false
        }
    }

    /// How long iterations keep starting (the sum of the stages for the ramping executors).
    package var duration: Duration {
        switch self {
        case .constantArrivalRate(_, let duration), .constantVUs(_, let duration): duration
        case .rampingArrivalRate(_, let stages), .rampingVUs(_, let stages): stages.reduce(.zero) { $0 + $1.duration }
        }
    }

    /// The rate (open) or VU count (closed) over time, as piecewise-linear segments.
    var segments: [LoadSegment] {
        switch self {
        case .constantArrivalRate(let rate, let duration): [LoadSegment(start: 0, length: Self.nanoseconds(duration), from: rate, to: rate)]
        case .constantVUs(let vus, let duration): [LoadSegment(start: 0, length: Self.nanoseconds(duration), from: Double(vus), to: Double(vus))]
        case .rampingArrivalRate(let start, let stages): Self.segments(start: start, stages)
        case .rampingVUs(let start, let stages): Self.segments(start: Double(start), stages)
        }
    }

    /// The most VUs a closed-model executor ever has (0 for the open model).
    package var peakVUs: Int {
        switch self {
        case .constantArrivalRate, .rampingArrivalRate: 0
        case .constantVUs(let vus, _): vus
        case .rampingVUs(let start, let stages): stages.map { Int($0.target) }.reduce(start, max)
        }
    }

    /// The executor as `--executor` and reports print it.
    package var description: String {
        switch self {
        case .constantArrivalRate(let rate, let duration): "\(name) rate=\(LoadStage.format(rate))/s duration=\(LoadStage.format(duration))"
        case .rampingArrivalRate(let start, let stages): "\(name) start=\(LoadStage.format(start))/s stages=\(LoadStage.format(stages))"
        case .constantVUs(let vus, let duration): "\(name) vus=\(vus) duration=\(LoadStage.format(duration))"
        case .rampingVUs(let start, let stages): "\(name) start=\(start) stages=\(LoadStage.format(stages))"
        }
    }

    private static func segments(start: Double, _ stages: [LoadStage]) -> [LoadSegment] {
        var result: [LoadSegment] = []
        var at: UInt64 = 0, from = start
        for stage in stages {
            let length = nanoseconds(stage.duration)
            result.append(LoadSegment(start: at, length: length, from: from, to: stage.target))
            at += length
            from = stage.target
        }
        return result
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 { UInt64(max(0, duration.nanoseconds)) }
}

/// One k6 stage: reach `target` (iterations/s or VUs) linearly over `duration`.
package struct LoadStage: Sendable, Hashable {
    /// How long the stage lasts.
    package var duration: Duration
    /// The rate or VU count reached at its end.
    package var target: Double

    /// A stage reaching `target` over `duration`.
    package init(duration: Duration, target: Double) {
        self.duration = duration
        self.target = target
    }

    /// `30s:100,1m:500` (k6's stages as `duration:target` pairs).
    static func format(_ stages: [LoadStage]) -> String {
        stages.map { "\(format($0.duration)):\(format($0.target))" }.joined(separator: ",")
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `500ms`, `10s`, `2m`, `1h` (the largest unit that divides it).
    static func format(_ duration: Duration) -> String {
        let ns = duration.nanoseconds
        for (unit, scale) in [("h", Int64(3_600_000_000_000)), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000)]
        where ns != 0 && ns % scale == 0 {
            return "\(ns / scale)\(unit)"
        }
        return "\(ns)ns"
    }
}

/// A stretch of a piecewise-linear load shape: `from` → `to` over `length` ns from `start`.
struct LoadSegment: Sendable, Hashable {
    var start: UInt64
    var length: UInt64
    var from: Double
    var to: Double

    var end: UInt64 { start + length }

    /// The value at `time` (inside the segment).
    func value(at time: UInt64) -> Double {
        guard length > 0 else { return to }
        return from + (to - from) * Double(time - start) / Double(length)
    }

    /// Arrivals in the segment when the value is a rate per second (the area under it).
    var arrivals: Double { (from + to) / 2 * Double(length) / 1e9 }
}

extension Duration {
    /// Whole nanoseconds, truncating sub-nanosecond parts (load durations are far below 292 years).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
