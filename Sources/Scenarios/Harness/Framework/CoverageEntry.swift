/// How often one declared piece of a participant's code ran in a run or a sweep: for the simulated
/// Firebase a callable, trigger or scheduled job's invocations (and how many threw), or a security
/// rule's evaluations (and how many denied). A declared entry that never ran has `invocations` 0.
public struct CoverageEntry: Sendable, Hashable, Codable {
    /// What kind of code the entry is (`callable`, `trigger`, `scheduled-job`, `rule`).
    public var kind: String
    /// The code's registered name (a function's name, a rule's collection pattern).
    public var name: String
    /// Invocations (retries and duplicate deliveries included) or evaluations.
    public var invocations: Int
    /// Invocations that threw, or evaluations that denied.
    public var failures: Int

    /// A count for one declared entry.
    package init(kind: String, name: String, invocations: Int = 0, failures: Int = 0) {
        self.kind = kind
        self.name = name
        self.invocations = invocations
        self.failures = failures
    }

    /// `a` and `b` added per (kind, name), sorted by kind then name; an entry declared on either
    /// side stays (with 0 invocations if neither ran it).
    package static func combining(_ a: [CoverageEntry], _ b: [CoverageEntry]) -> [CoverageEntry] {
        var byKey: [Key: CoverageEntry] = [:]
        for entry in a + b {
            let key = Key(kind: entry.kind, name: entry.name)
            if var existing = byKey[key] {
                existing.invocations += entry.invocations
                existing.failures += entry.failures
                byKey[key] = existing
            } else {
                byKey[key] = entry
            }
        }
        return byKey.keys.sorted().map { byKey[$0]! }
    }

    /// An entry's identity, ordered by kind then name.
    struct Key: Hashable, Comparable {
        let kind: String
        let name: String
        static func < (a: Key, b: Key) -> Bool { (a.kind, a.name) < (b.kind, b.name) }
    }
}
