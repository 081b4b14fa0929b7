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

    /// The longest draw of the body (2 × median): a draw past it came from the tail.
    public var bodyMax: Duration { median * 2 }

    /// No latency at all.
    public static let zero = LatencyModel(median: .zero, tailProbability: 0, tailMax: .zero)

    /// One sample, drawn from `generator`.
    public func sample<G: RandomNumberGenerator>(using generator: inout G) -> Duration {
        let bodyMax = median.nanoseconds * 2
        if bodyMax == 0 && tailMax == .zero { return .zero }
        let roll = generator.unitInterval()
        if roll < tailProbability, tailMax.nanoseconds > bodyMax {
            return .nanoseconds(generator.int64(in: bodyMax...tailMax.nanoseconds))
        }
        return .nanoseconds(generator.int64(in: 0...bodyMax))
    }
}

extension RandomNumberGenerator {
    /// A uniform double in [0, 1) from 53 random bits.
    public mutating func unitInterval() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// The draw `Int64.random(in: range, using: &self)` makes, bit for bit (the standard library's
    /// algorithm: Lemire's multiply-shift with rejection), in concrete `UInt64` arithmetic. Through
    /// `any RandomNumberGenerator` the standard library's generic version runs unspecialised
    /// (metadata look-ups per draw); this one only calls `next()`.
    public mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        let delta = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if delta == .max { return Int64(bitPattern: next()) }
        let bound = delta + 1
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return Int64(bitPattern: UInt64(bitPattern: range.lowerBound) &+ product.high)
    }

    /// True with probability `probability` (never draws when the probability is 0 or 1, so
    /// switching a knob fully off or on does not shift later draws of the stream).
    public mutating func chance(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return unitInterval() < probability
    }
}
