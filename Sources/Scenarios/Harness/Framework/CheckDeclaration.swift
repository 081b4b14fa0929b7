/// A named check a scenario makes, with its kind, what it asserts and the parameters under which
/// it can be exercised at all.
public struct CheckDeclaration: Sendable, Hashable, Codable {
    /// Always: must hold at every observation (a violation ends the run); Sometimes: a goal some
    /// run of a sweep must reach; Eventually: must hold at the end, once the backend is idle.
    public enum Kind: String, Sendable, Hashable, Codable { case always, sometimes, eventually }

    /// The check's kebab-case name, as reports print it.
    public let name: String
    /// Always, Sometimes or Eventually.
    public let kind: Kind
    /// What the check asserts, in one line.
    public let summary: String
    /// Every requirement must hold for the check to be reachable; empty: always reachable.
    /// A sweep does not fail on a goal its parameters make unreachable; it reports it, with why.
    public let requirements: [CheckRequirement]
    /// The timeline operations (the leading words of a user's timeline entry, e.g. `reply` or
    /// `double-tap collect`; an entry matches when it is the operation or starts with it and a space) that can
    /// change what this check judges: a failure story keeps those on the violated entity, with
    /// the faults that hit it. Empty: every operation on the entity.
    public let operations: [String]

    /// A check of `kind` called `name`, exercisable only when `requirements` hold, about `operations`.
    public init(
        _ kind: Kind, _ name: String, _ summary: String, requires requirements: [CheckRequirement] = [], operations: [String] = []
    ) {
        self.kind = kind
        self.name = name
        self.summary = summary
        self.requirements = requirements
        self.operations = operations
    }

    /// Why `parameters` make this check unreachable (the unmet requirements), or nil when reachable.
    package func unreachableReason(_ parameters: ScenarioParameters) -> String? {
        let unmet = requirements.filter { !$0.isMet(by: parameters) }
        return unmet.isEmpty ? nil : unmet.map { $0.explanation(parameters) }.joined(separator: "; ")
    }

    /// Why no world of a swarm can reach this check: the requirements on `pinned` parameters that
    /// their pinned values break (a drawn parameter may meet its requirement in some world).
    package func unreachableReason(_ parameters: ScenarioParameters, pinned: Set<String>) -> String? {
        let unmet = requirements.filter { pinned.contains($0.parameter) && !$0.isMet(by: parameters) }
        return unmet.isEmpty ? nil : unmet.map { $0.explanation(parameters) }.joined(separator: "; ")
    }

    private enum CodingKeys: String, CodingKey { case name, kind, summary, requirements, operations }

    /// Reads a declaration; `requirements` and `operations` may be absent (older files).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decode(Kind.self, forKey: .kind)
        summary = try container.decode(String.self, forKey: .summary)
        // Reports written before requirements existed have none.
        requirements = try container.decodeIfPresent([CheckRequirement].self, forKey: .requirements) ?? []
        operations = try container.decodeIfPresent([String].self, forKey: .operations) ?? []
    }
}
