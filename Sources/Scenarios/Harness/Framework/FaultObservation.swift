
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
    /// What else makes this kind happen besides its drawn probability (the expectation counts only
    /// the draws), so a count far above the expectation is explained; nil when the draws are its
    /// only source.
    public var otherSources: String?

    /// Faults expected.
    package var expected: Double { Double(expectedBillionths) / 1e9 }
    /// Binomial variance of `observed`.
    package var variance: Double { Double(varianceBillionths) / 1e9 }

    /// An observation of `kind`: `opportunities` chances, `observed` occurrences, the sum of the
    /// configured probabilities and their binomial variance, both in billionths.
    package init(kind: FaultKindName, opportunities: Int, expectedBillionths: UInt64, varianceBillionths: UInt64, observed: Int, otherSources: String? = nil) {
        self.kind = kind
        self.opportunities = opportunities
        self.expectedBillionths = expectedBillionths
        self.varianceBillionths = varianceBillionths
        self.observed = observed
        self.otherSources = otherSources
    }

    /// Sigmas away from the expectation, either way, at which a count is judged off.
    package static let suppressionSigmas = 4.0
    /// The smallest expectation at which a count is judged (fewer chances prove nothing).
    package static let minimumExpected = 5.0

    /// How the observed count stands against the expectation, judged both ways.
    package var verdict: FaultVerdict {
        guard opportunities > 0 else { return .counted }
        guard expected >= Self.minimumExpected else { return .tooFewToJudge }
        let margin = Self.suppressionSigmas * variance.squareRoot() + 1
        // Never happening although ≥ 10 were expected: P(0) ≤ e^-10 for a working backend.
        if (observed == 0 && expected >= 10) || Double(observed) < expected - margin { return .fewer }
        if Double(observed) > expected + margin { return otherSources.map { .moreExplained(because: $0) } ?? .moreUnexplained }
        return .asExpected
    }

    /// True when the verdict fails a sweep: far fewer than drawn, or far more with no source named.
    package var isOff: Bool { verdict.fails }

    /// `trigger-duplicate 3 vs 2.9 ± 1.7 expected (612 chances), as expected`; a kind that is no
    /// draw (a limit or contention, with no chances): `lock-wait 12 (counted, no expectation)`.
    package var summary: String {
        guard opportunities > 0 else { return "\(kind.rawValue) \(observed) (counted, no expectation)" }
        return "\(kind.rawValue) \(observed) vs \(String(format: "%.1f ± %.1f", expected, variance.squareRoot())) expected (\(opportunities) chances), \(verdict)"
    }

    /// Adds another run's observation of the same kind.
    package mutating func add(_ other: FaultObservation) {
        precondition(other.kind == kind, "adding observations of different fault kinds")
        opportunities += other.opportunities
        expectedBillionths &+= other.expectedBillionths
        varianceBillionths &+= other.varianceBillionths
        observed += other.observed
        otherSources = otherSources ?? other.otherSources
    }

    /// `a` and `b` combined per kind, in kind order.
    package static func combining(_ a: [FaultObservation], _ b: [FaultObservation]) -> [FaultObservation] {
        var byKind: [FaultKindName: FaultObservation] = [:]
        for observation in a + b {
            if byKind[observation.kind] == nil { byKind[observation.kind] = observation } else { byKind[observation.kind]!.add(observation) }
        }
        return byKind.keys.sorted().map { byKind[$0]! }
    }
}
