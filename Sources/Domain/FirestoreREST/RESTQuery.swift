import SimulatedFirebase

/// A `Query` as the SDKs send it to `runQuery`: the collection under its parent document, the
/// filter, the full order spelled out (explicit orders, inequality fields, then `__name__` in the
/// last order's direction), cursors with `before` always given, and `limitToLast` done as the SDKs
/// do it (every direction flipped, the cursors swapped, the results reversed on the client).
public enum RESTQuery {
    /// The structured query, its parent document (nil: the root) and whether the answer must be reversed.
    public static func encode(_ query: Query, documentsRoot: String) -> (structuredQuery: [String: Any], parent: DocumentPath?, reversed: Bool) {
        let (parent, collectionId) = split(query)
        var order = query.effectiveOrder
        var start = query.start, end = query.end
        if query.limitToLast {
            order = order.map { Query.Order($0.field, descending: !$0.descending) }
            (start, end) = (end, start)
        }
        var structured: [String: Any] = ["from": [["collectionId": collectionId, "allDescendants": query.allDescendants]]]
        if let filter = query.filter { structured["where"] = encode(filter, documentsRoot: documentsRoot, collection: query.collection) }
        structured["orderBy"] = order.map { ["field": ["fieldPath": RESTFieldPath.encode(dotted: $0.field)], "direction": $0.descending ? "DESCENDING" : "ASCENDING"] }
        // startAt takes `before: true` to include its position; endAt takes `before: false` to include it.
        if let start { structured["startAt"] = cursor(start, before: start.inclusive, order: order, documentsRoot: documentsRoot, collection: query.collection) }
        if let end { structured["endAt"] = cursor(end, before: !end.inclusive, order: order, documentsRoot: documentsRoot, collection: query.collection) }
        if let limit = query.limit { structured["limit"] = limit }
        return (structured, parent, query.limitToLast)
    }

    /// `users/u1/notes` → (parent `users/u1`, `notes`); a root collection has no parent.
    static func split(_ query: Query) -> (DocumentPath?, String) {
        guard !query.allDescendants, let slash = query.collection.lastIndex(of: "/") else { return (nil, query.collection) }
        return (DocumentPath(String(query.collection[..<slash])), String(query.collection[query.collection.index(after: slash)...]))
    }

    static func encode(_ filter: QueryFilter, documentsRoot: String, collection: String) -> [String: Any] {
        switch filter {
        case .and(let filters), .or(let filters):
            let op = if case .and = filter { "AND" } else { "OR" }
            return ["compositeFilter": ["op": op, "filters": filters.map { encode($0, documentsRoot: documentsRoot, collection: collection) }]]
        case .unary(let field, let test):
            return ["unaryFilter": ["op": test.rawValue, "field": ["fieldPath": RESTFieldPath.encode(dotted: field)]]]
        case .field(let field, let op, let value):
            let operand = field == QueryField.documentName ? reference(value, documentsRoot: documentsRoot, collection: collection) : RESTValue.encode(value)
            return ["fieldFilter": ["field": ["fieldPath": RESTFieldPath.encode(dotted: field)], "op": op.rawValue, "value": operand]]
        }
    }

    static func cursor(_ cursor: Query.Cursor, before: Bool, order: [Query.Order], documentsRoot: String, collection: String) -> [String: Any] {
        let values = zip(order, cursor.values).map { item, value in
            item.field == QueryField.documentName ? reference(value, documentsRoot: documentsRoot, collection: collection) : RESTValue.encode(value)
        }
        return ["values": values, "before": before]
    }

    /// A `__name__` operand: a document path (or an id in the queried collection) as a reference.
    static func reference(_ value: Value, documentsRoot: String, collection: String) -> [String: Any] {
        guard let text = value.stringValue else { return RESTValue.encode(value) }
        return ["referenceValue": "\(documentsRoot)/" + (text.contains("/") ? text : "\(collection)/\(text)")]
    }
}

extension FirestoreRESTClient {
    /// The documents `query` returns, in order, as an SDK would show them.
    public func runQuery(_ query: Query, transaction: String? = nil) async throws(RESTError) -> [RESTDocument] {
        let (structured, parent, reversed) = RESTQuery.encode(query, documentsRoot: documentsRoot)
        let documents = try await runQuery(structured, parent: parent, transaction: transaction)
        return reversed ? documents.reversed() : documents
    }
}
