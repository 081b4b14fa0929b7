/// A Firestore query as the SDKs build it: a collection (or every collection with one id, a
/// collection-group query), a filter, an order, cursors and a limit from either end. `evaluate`
/// answers it the way Firestore does (docs/domain.md, "Queries"): documents lacking an ordered
/// field are left out; inequality fields order the results after the explicit order; the document
/// key breaks ties in the last order's direction.
public struct Query: Sendable, Hashable {
    /// One `orderBy`.
    public struct Order: Sendable, Hashable {
        /// The field path (`__name__` for the document key).
        public var field: String
        /// True for descending.
        public var descending: Bool
        /// `field` in the given direction.
        public init(_ field: String, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }
    }

    /// A cursor: values for the order's fields, a prefix of them, and whether the position itself
    /// is included (`startAt`/`endAt`) or not (`startAfter`/`endBefore`).
    public struct Cursor: Sendable, Hashable {
        /// The values, one per order field from the first.
        public var values: [Value]
        /// Whether documents exactly at the cursor are in the results.
        public var inclusive: Bool
        /// A cursor at `values`.
        public init(_ values: [Value], inclusive: Bool) {
            self.values = values
            self.inclusive = inclusive
        }
    }

    /// The collection path, or the collection id of a collection-group query.
    public var collection: String
    /// True for a collection-group query (every collection whose last segment is `collection`).
    public var allDescendants: Bool
    /// The filter, nil for none.
    public var filter: QueryFilter?
    /// The explicit order.
    public var orderBy: [Order]
    /// Where the results start.
    public var start: Cursor?
    /// Where the results end.
    public var end: Cursor?
    /// At most this many results.
    public var limit: Int?
    /// True when `limit` counts from the end (`limitToLast`).
    public var limitToLast: Bool

    /// A query of `collection`.
    public init(_ collection: String, allDescendants: Bool = false, filter: QueryFilter? = nil, orderBy: [Order] = [],
                start: Cursor? = nil, end: Cursor? = nil, limit: Int? = nil, limitToLast: Bool = false) {
        self.collection = collection
        self.allDescendants = allDescendants
        self.filter = filter
        self.orderBy = orderBy
        self.start = start
        self.end = end
        self.limit = limit
        self.limitToLast = limitToLast
    }

    /// The order Firestore applies: the explicit one, then the inequality fields not in it (by
    /// field path), then the document key in the last order's direction.
    public var effectiveOrder: [Order] {
        var order = orderBy
        let named = Set(order.map(\.field))
        for field in (filter?.inequalityFields ?? []).sorted() where !named.contains(field) && field != QueryField.documentName {
            order.append(Order(field))
        }
        if !order.contains(where: { $0.field == QueryField.documentName }) {
            order.append(Order(QueryField.documentName, descending: order.last?.descending ?? false))
        }
        return order
    }

    /// The query's answer over `documents` (existing documents of the queried collections).
    public func evaluate(_ documents: [DocumentSnapshot]) -> [DocumentSnapshot] {
        let order = effectiveOrder
        var matching = documents.filter { snapshot in
            guard let fields = snapshot.fields else { return false }
            if let filter, !filter.matches(fields, path: snapshot.path) { return false }
            return order.allSatisfy { QueryField.value($0.field, in: fields, path: snapshot.path) != nil }
        }
        matching.sort { compare($0, $1, order) < 0 }
        if let start { matching.removeAll { !isAfterStart($0, start, order) } }
        if let end { matching.removeAll { !isBeforeEnd($0, end, order) } }
        guard let limit else { return matching }
        return limitToLast ? Array(matching.suffix(limit)) : Array(matching.prefix(limit))
    }

    func compare(_ a: DocumentSnapshot, _ b: DocumentSnapshot, _ order: [Order]) -> Int {
        for item in order {
            var result: Int
            if item.field == QueryField.documentName {
                result = QueryField.compareNames(a.path, b.path)
            } else {
                result = ValueOrder.compare(QueryField.value(item.field, in: a.fields!, path: a.path)!,
                                            QueryField.value(item.field, in: b.fields!, path: b.path)!)
            }
            if item.descending { result = -result }
            if result != 0 { return result }
        }
        return 0
    }

    /// How `snapshot` stands against a cursor's values (a prefix of the order): -1 before, 0 at, 1 after.
    func position(_ snapshot: DocumentSnapshot, _ cursor: Cursor, _ order: [Order]) -> Int {
        for (item, value) in zip(order, cursor.values) {
            var result: Int
            if item.field == QueryField.documentName {
                let named = value.stringValue.map { DocumentPath($0.contains("/") ? $0 : "\(snapshot.path.collection)/\($0)") }
                result = named.map { QueryField.compareNames(snapshot.path, $0) } ?? 1
            } else {
                result = ValueOrder.compare(QueryField.value(item.field, in: snapshot.fields!, path: snapshot.path)!, value)
            }
            if item.descending { result = -result }
            if result != 0 { return result }
        }
        return 0
    }

    func isAfterStart(_ snapshot: DocumentSnapshot, _ cursor: Cursor, _ order: [Order]) -> Bool {
        let at = position(snapshot, cursor, order)
        return at > 0 || (at == 0 && cursor.inclusive)
    }

    func isBeforeEnd(_ snapshot: DocumentSnapshot, _ cursor: Cursor, _ order: [Order]) -> Bool {
        let at = position(snapshot, cursor, order)
        return at < 0 || (at == 0 && cursor.inclusive)
    }
}
