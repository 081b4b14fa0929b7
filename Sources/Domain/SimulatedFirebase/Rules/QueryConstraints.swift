/// What a query tells the rules about every document it could return (docs/domain.md, "Rules are
/// not filters"): Firestore judges a `list` once, on the query's constraints, never on the
/// documents found. A rule reading `resource.data.f` sees the value of an equality filter on `f`
/// (a top-level conjunct); any other field is unknown, which the rules engine cannot prove, so the
/// request is denied — the simulated rules see it as absent.
extension QueryFilter {
    /// The document every result shares: each top-level `field == value` conjunct, nested paths
    /// (`a.b`) as maps; empty when the filter pins nothing.
    public var equalityConstraints: Fields {
        var fields: Fields = [:]
        for conjunct in conjuncts {
            guard case .field(let path, .equal, let value) = conjunct, path != QueryField.documentName else { continue }
            Self.insert(value, at: path.split(separator: ".").map(String.init)[...], into: &fields)
        }
        return fields
    }

    /// The filters that must all hold: the parts of a top-level `and`, or the filter itself.
    var conjuncts: [QueryFilter] {
        if case .and(let filters) = self { return filters.flatMap(\.conjuncts) }
        return [self]
    }

    private static func insert(_ value: Value, at path: ArraySlice<String>, into fields: inout Fields) {
        guard let head = path.first else { return }
        if path.count == 1 {
            fields[head] = value
            return
        }
        var inner = fields[head]?.mapValue ?? [:]
        insert(value, at: path.dropFirst(), into: &inner)
        fields[head] = .map(inner)
    }
}

extension RuleRequest {
    /// The id a `list` request's path carries: reserved (`__…__`), so no document has it and no
    /// rule comparing the id with a uid allows a query.
    public static let queryDocumentId = "__query__"

    /// The `list` request a query of `collection` pinned by `constraints` makes (`resource` is
    /// the constraints' document, never nil).
    public static func list(auth: AuthContext?, collection: String, constraints: Fields,
                            lookup: @escaping @Sendable (DocumentPath) -> Fields?) -> RuleRequest {
        RuleRequest(auth: auth, operation: .list, path: DocumentPath(collection, queryDocumentId), resource: constraints, data: nil, lookup: lookup)
    }
}

extension RuleRequest {
    /// Rules' `==` on two fields (and `diff()`'s notion of a changed key): numbers by value (`1 ==
    /// 1.0`), arrays and maps element by element; a missing field equals only a missing field.
    public static func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a == b || ValueOrder.equal(a, b)
        default: false
        }
    }
}
