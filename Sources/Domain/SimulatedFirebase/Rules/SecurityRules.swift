/// What a security rule sees: the caller, the operation, the document before (`resource`) and
/// after (`data`, for writes), and `lookup` for rules' `get()` of other documents.
public struct RuleRequest: Sendable {
    /// The caller, nil when signed out.
    public let auth: AuthContext?
    /// What the request does (get, list, create, update, delete).
    public let operation: RuleOperation
    /// The document the request touches.
    public let path: DocumentPath
    /// The stored document (`resource.data`), nil if it does not exist.
    public let resource: Fields?
    /// The document as it would be after the write (`request.resource.data`); nil for reads/deletes.
    public let data: Fields?
    /// Reads the latest committed fields of another document (rules' `get()`/`exists()`).
    public let lookup: @Sendable (DocumentPath) -> Fields?
    /// The server's time when the request is judged (`request.time`): set by the backend that
    /// evaluates it; nil for a request built without one (a rules table in a test).
    public internal(set) var time: Timestamp?

    /// A request as the backend builds it (public so apps' rules can be tested against tables).
    public init(auth: AuthContext?, operation: RuleOperation, path: DocumentPath, resource: Fields?, data: Fields?,
                lookup: @escaping @Sendable (DocumentPath) -> Fields?) {
        self.auth = auth
        self.operation = operation
        self.path = path
        self.resource = resource
        self.data = data
        self.lookup = lookup
    }

    /// The `index`-th segment of the document's full path (`users/{0}` → segment 1 is the id).
    public func pathSegment(_ index: Int) -> String? {
        PathPattern.segment(index, collection: path.collection, id: path.id)
    }
}

/// A Firestore security rules set: per collection pattern (`users/{uid}/notifications`), one
/// function deciding every operation. Collections without a match are denied (as in Firestore).
public struct SecurityRules: Sendable {
    /// One match's condition: true allows the request.
    public typealias Rule = @Sendable (RuleRequest) -> Bool
    private var entries: [(pattern: PathPattern, rule: Rule)] = []

    /// Rules that allow nothing until matches are added.
    public init() {}

    /// Allows everything to anyone (no rules deployed in test mode).
    public static var allowAll: SecurityRules {
        var rules = SecurityRules()
        rules.catchAll = true
        return rules
    }
    private var catchAll = false

    /// Adds the rule for collections matching `pattern` (`{name}` one segment, a last `{name=**}` any
    /// number); a request is allowed when any matching rule allows it.
    public mutating func match(_ pattern: String, _ rule: @escaping Rule) {
        entries.append((PathPattern(pattern), rule))
    }

    /// The collection patterns of the rules, in the order they were added.
    public var patterns: [String] { entries.map(\.pattern.pattern) }

    /// The name coverage counts an evaluation under when no pattern matched (denied).
    public static let noMatchingRule = "(no matching rule)"
    /// The name coverage counts `allowAll`'s evaluations under.
    public static let allowAllRule = "(allow all: test mode)"

    /// Whether any matching rule allows `request` (Firestore grants a request when any `allow`
    /// of any matching statement grants it: a broader match cannot be narrowed by a specific one).
    public func allows(_ request: RuleRequest) -> Bool { decide(request).allowed }

    /// Whether `request` is allowed, and which rule decided: the first matching pattern that
    /// allows it, else the first matching one, else `noMatchingRule`.
    public func decide(_ request: RuleRequest) -> (rule: String, allowed: Bool) {
        if catchAll { return (Self.allowAllRule, true) }
        // By position, in place: copying each entry retained its pattern's arrays and its rule
        // (nine retains an evaluation).
        let collection = request.path.collection
        var firstMatch: Int?
        var index = 0
        while true {
            let found = entries.withUnsafeBufferPointer { entries in
                var position = index
                while position < entries.count && !entries[position].pattern.matches(collection) { position += 1 }
                return position
            }
            guard found < entries.count else { break }
            if entries[found].rule(request) { return (entries[found].pattern.pattern, true) }
            if firstMatch == nil { firstMatch = found }
            index = found + 1
        }
        guard let firstMatch else { return (Self.noMatchingRule, false) }
        return (entries[firstMatch].pattern.pattern, false)
    }
}
