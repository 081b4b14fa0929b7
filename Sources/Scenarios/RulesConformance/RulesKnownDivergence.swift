/// A documented difference between the simulated rules and a real Firestore's
/// (docs/real-firestore.md, "Security rules"): the rules differential counts it apart.
public struct RulesKnownDivergence: Sendable, Hashable {
    /// A short name.
    public var name: String
    /// Why it differs, with the source.
    public var reason: String
    /// Whether a mismatch is this divergence.
    let explains: @Sendable (RulesMismatch) -> Bool

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every documented rules divergence.
    public static let all: [RulesKnownDivergence] = []

    /// The documented divergence explaining `mismatch`, if any.
    static func explaining(_ mismatch: RulesMismatch) -> RulesKnownDivergence? { all.first { $0.explains(mismatch) } }
}
