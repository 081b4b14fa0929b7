/// A Cloud Storage security rules set: per path pattern (`social_posts/{postId}/{fileName}`),
/// one function deciding every operation; the first matching pattern decides and a path that
/// matches none is denied (Storage's default).
public struct StorageRules: Sendable {
    /// One match's condition: true allows the request.
    public typealias Rule = @Sendable (StorageRuleRequest) -> Bool
    private var entries: [(pattern: String, segments: [Substring], rule: Rule)] = []

    /// Rules that allow nothing until matches are added (what a project without rules gets).
    public init() {}

    /// Adds the rule for object paths matching `pattern` (one `{name}` per wildcard segment).
    public mutating func match(_ pattern: String, _ rule: @escaping Rule) {
        entries.append((pattern, pattern.split(separator: "/"), rule))
    }

    /// The path patterns, in the order they were added.
    public var patterns: [String] { entries.map(\.pattern) }

    /// The name coverage counts Storage evaluations under (`storage: <pattern>`).
    public static func coverageName(_ pattern: String) -> String { "storage: \(pattern)" }

    /// Whether `request` is allowed, and which pattern decided: the first matching one that allows
    /// it (any matching statement grants, as in Firestore's rules), else the first matching one,
    /// else `SecurityRules.noMatchingRule`.
    public func decide(_ request: StorageRuleRequest) -> (rule: String, allowed: Bool) {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: false)
        var firstMatch: String?
        for entry in entries where PathPattern.matches(entry.segments, segments) {
            if entry.rule(request) { return (entry.pattern, true) }
            if firstMatch == nil { firstMatch = entry.pattern }
        }
        return (firstMatch ?? SecurityRules.noMatchingRule, false)
    }

    /// Whether any matching rule allows `request`.
    public func allows(_ request: StorageRuleRequest) -> Bool { decide(request).allowed }
}
