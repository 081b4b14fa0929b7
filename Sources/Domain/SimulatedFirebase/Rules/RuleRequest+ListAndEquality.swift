extension RuleRequest {
    /// The id a `list` request's path carries: reserved (`__…__`), so no document has it and no
    /// rule comparing the id with a uid allows a query.
    public static let queryDocumentId = "__query__"

    /// The `list` request one case of a query of `collection` makes (`resource` is the fields the
    /// case pins, never nil).
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
