
/// One fault kind over a run or a sweep: how often the backend had the chance to inject it, how
/// often it should have (the sum of its configured probabilities), and how often it took effect.
public struct FaultObservation: Sendable, Hashable, Codable {
    /// The fault kind observed.
    public var kind: FaultKindName
    /// Times the backend had the chance to inject it.
    public var opportunities: Int
    /// Sum of the configured probabilities, in billionths (exact, so merges are associative).
    public var expectedBillionths: UInt64
    /// Binomial variance of `observed` (sum of p·(1 − p)), in billionths.
    public var varianceBillionths: UInt64
    /// Times it took effect.
    public var observed: Int

    /// Faults expected.
    public var expected: Double { Double(expectedBillionths) / 1e9 }
    /// Binomial variance of `observed`.
    public var variance: Double { Double(varianceBillionths) / 1e9 }

    /// An observation of `kind`: `opportunities` chances, `observed` occurrences, the sum of the
    /// configured probabilities and their binomial variance, both in billionths.
    public init(kind: FaultKindName, opportunities: Int, expectedBillionths: UInt64, varianceBillionths: UInt64, observed: Int) {
        self.kind = kind
        self.opportunities = opportunities
        self.expectedBillionths = expectedBillionths
        self.varianceBillionths = varianceBillionths
        self.observed = observed
    }

    /// Sigmas below the expectation at which a fault counts as suppressed.
    public static let suppressionSigmas = 4.0
    /// The smallest expectation at which a shortfall is judged (fewer chances prove nothing).
    public static let minimumExpected = 5.0

    /// True when far fewer faults took effect than were drawn: the backend was kinder than it
    /// claims (a fault drawn but never delivered, a window compared in the wrong unit). One-sided:
    /// more faults than expected (the kernel's timing choices add reorders) is not kinder.
    public var isSuppressed: Bool {
        guard expected >= Self.minimumExpected else { return false }
        // Never happening although ≥ 10 were expected: P(0) ≤ e^-10 for a working backend.
        if observed == 0 && expected >= 10 { return true }
        return Double(observed) < expected - Self.suppressionSigmas * variance.squareRoot() - 1
    }

    /// `trigger-duplicate 3/2.9 expected (612 chances)`; a kind that is no draw (a limit or
    /// contention, with no chances): `lock-wait 12 (counted, no expectation)`.
    public var summary: String {
        guard opportunities > 0 else { return "\(kind.rawValue) \(observed) (counted, no expectation)" }
        return "\(kind.rawValue) \(observed)/\(String(format: "%.1f", expected)) expected (\(opportunities) chances)"
    }

    /// Adds another run's observation of the same kind.
    public mutating func add(_ other: FaultObservation) {
        precondition(other.kind == kind, "adding observations of different fault kinds")
        opportunities += other.opportunities
        expectedBillionths &+= other.expectedBillionths
        varianceBillionths &+= other.varianceBillionths
        observed += other.observed
    }

    /// `a` and `b` combined per kind, in kind order.
    public static func combining(_ a: [FaultObservation], _ b: [FaultObservation]) -> [FaultObservation] {
        var byKind: [FaultKindName: FaultObservation] = [:]
        for observation in a + b {
            if byKind[observation.kind] == nil { byKind[observation.kind] = observation } else { byKind[observation.kind]!.add(observation) }
        }
        return byKind.keys.sorted().map { byKind[$0]! }
    }
}
