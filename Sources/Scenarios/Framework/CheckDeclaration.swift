/// A named check a scenario makes, with its kind and what it asserts.
public struct CheckDeclaration: Sendable, Hashable, Codable {
    /// Always: must hold at every observation (a violation ends the run); Sometimes: a goal some
    /// run of a sweep must reach; Eventually: must hold at the end, once the backend is idle.
    public enum Kind: String, Sendable, Hashable, Codable { case always, sometimes, eventually }

    public let name: String
    public let kind: Kind
    public let summary: String

    public init(_ kind: Kind, _ name: String, _ summary: String) {
        self.kind = kind
        self.name = name
        self.summary = summary
    }
}
