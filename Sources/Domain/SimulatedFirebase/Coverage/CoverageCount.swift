/// How often one declared piece of backend code ran in a run or a sweep: a callable, trigger or
/// scheduled job's invocations (and how many threw), a security rule's evaluations (and how many
/// denied). A declared entry that never ran has `invocations` 0.
public struct CoverageCount: Sendable, Hashable, Codable {
    /// Callable, trigger, scheduled job or rule.
    public var kind: CoverageKind
    /// The function's registered name, or the rule's collection pattern (`users/{uid}/notifications`).
    public var name: String
    /// Handler invocations (retries and duplicate deliveries included) or rule evaluations.
    public var invocations: Int
    /// Invocations that threw, or evaluations that denied.
    public var failures: Int

    /// A count for one declared entry.
    public init(kind: CoverageKind, name: String, invocations: Int = 0, failures: Int = 0) {
        self.kind = kind
        self.name = name
        self.invocations = invocations
        self.failures = failures
    }

    /// `a` and `b` added per (kind, name), sorted by kind then name; an entry declared on either
    /// side stays (with 0 invocations if neither ran it).
    public static func combining(_ a: [CoverageCount], _ b: [CoverageCount]) -> [CoverageCount] {
        var byKey: [CoverageKey: CoverageCount] = [:]
        for count in a + b {
            let key = CoverageKey(kind: count.kind, name: count.name)
            if var existing = byKey[key] {
                existing.invocations += count.invocations
                existing.failures += count.failures
                byKey[key] = existing
            } else {
                byKey[key] = count
            }
        }
        return byKey.keys.sorted().map { byKey[$0]! }
    }
}
