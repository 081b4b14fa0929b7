import SimulatedFirebase

/// A request the simulated rules and the real server decided differently, with the documents
/// stored when it was made.
public struct RulesMismatch: Sendable, CustomStringConvertible {
    /// The app whose rules were judged.
    public var app: String
    /// The program's seed.
    public var seed: UInt64
    /// The request's position in the program (0-based).
    public var index: Int
    /// The request.
    public var request: RulesRequest
    /// The simulated Firebase's decision.
    public var simulated: RulesDecision
    /// The real server's decision.
    public var real: RulesDecision
    /// The documents stored when the request was made, by path.
    public var state: [(DocumentPath, Fields)]
    /// The documented divergence it is, nil when undocumented.
    public var known: RulesKnownDivergence?

    /// The request, both decisions, the stored documents and how to replay it.
    public var description: String {
        var lines = [
            "\(app) rules, seed \(seed), request \(index + 1)\(known.map { " — documented: \($0.name)" } ?? " — UNDOCUMENTED"):",
            "  \(request)",
            "  simulated: \(simulated)    real Firestore: \(real)",
            "  stored documents:",
        ]
        lines += state.map { "    \($0.0) \($0.1)" }
        lines.append("  replay: rehearse conformance --programs 0 --apps \(app) --rules-first-seed \(seed) --rules-requests \(index + 1)")
        return lines.joined(separator: "\n")
    }
}
