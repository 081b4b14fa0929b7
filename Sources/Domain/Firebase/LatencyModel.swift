/// A simple two-part latency distribution: a body uniform on [0, 2 × median] and, with
/// probability `tailProbability`, a tail uniform on [2 × median, tailMax].
///
/// Chosen over a log-normal so no floating-point library is needed and the shape is easy to
/// reason about in reports; every use of it is an *estimate* (see `BackendFaults`).
public struct LatencyModel: Sendable, Hashable {
    /// The typical latency.
    public var median: Duration
    /// The chance a draw falls in the tail.
    public var tailProbability: Double
    /// The longest latency a tail draw takes.
    public var tailMax: Duration

    /// A model with the given median and tail.
    public init(median: Duration, tailProbability: Double, tailMax: Duration) {
        precondition(median >= .zero && tailMax >= median * 2, "latency model needs 0 ≤ 2×median ≤ tailMax")
        precondition((0...1).contains(tailProbability), "tail probability must be in [0, 1]")
        self.median = median
        self.tailProbability = tailProbability
        self.tailMax = tailMax
    }

    /// No latency at all.
    public static let zero = LatencyModel(median: .zero, tailProbability: 0, tailMax: .zero)

    /// One sample, drawn from `generator`.
    public func sample<G: RandomNumberGenerator>(using generator: inout G) -> Duration {
        let bodyMax = median.nanoseconds * 2
        if bodyMax == 0 && tailMax == .zero { return .zero }
        let roll = generator.unitInterval()
        if roll < tailProbability, tailMax.nanoseconds > bodyMax {
            return .nanoseconds(Int64.random(in: bodyMax...tailMax.nanoseconds, using: &generator))
        }
        return .nanoseconds(Int64.random(in: 0...bodyMax, using: &generator))
    }
}

extension RandomNumberGenerator {
    /// A uniform double in [0, 1) from 53 random bits.
    public mutating func unitInterval() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `probability` (never draws when the probability is 0 or 1, so
    /// switching a knob fully off or on does not shift later draws of the stream).
    public mutating func chance(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return unitInterval() < probability
    }
}
