/// A coverage entry's identity: its kind and name.
public struct CoverageKey: Sendable, Hashable, Comparable {
    /// Callable, trigger, scheduled job or rule.
    public var kind: CoverageKind
    /// The function's name or the rule's collection pattern.
    public var name: String

    /// The key of one declared entry.
    public init(kind: CoverageKind, name: String) {
        self.kind = kind
        self.name = name
    }

    /// By kind, then name (the order reports list them in).
    public static func < (a: CoverageKey, b: CoverageKey) -> Bool { (a.kind, a.name) < (b.kind, b.name) }
}
