/// A coverage entry's identity: its kind and name.
public struct CoverageKey: Sendable, Hashable, Comparable {
    public var kind: CoverageKind
    public var name: String

    public init(kind: CoverageKind, name: String) {
        self.kind = kind
        self.name = name
    }

    public static func < (a: CoverageKey, b: CoverageKey) -> Bool { (a.kind, a.name) < (b.kind, b.name) }
}
