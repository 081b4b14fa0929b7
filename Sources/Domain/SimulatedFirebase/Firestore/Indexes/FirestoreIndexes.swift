/// The indexes deployed to a project (`firestore.indexes.json`): composite indexes and the
/// single-field indexes enabled in collection-group scope. A query needing one that is not here
/// fails FAILED_PRECONDITION with the index to create, as production answers
/// (docs/domain.md, "Indexes"); the emulator runs any query (`anyQuery`).
public struct FirestoreIndexes: Sendable, Hashable {
    /// A single-field index in collection-group scope (a `fieldOverrides` entry).
    public struct GroupField: Sendable, Hashable {
        /// The collection id.
        public var collectionGroup: String
        /// The field and its mode.
        public var field: CompositeIndex.Field
        /// `field` of `collectionGroup`, in collection-group scope.
        public init(_ collectionGroup: String, _ field: CompositeIndex.Field) {
            self.collectionGroup = collectionGroup
            self.field = field
        }
    }

    /// The composite indexes.
    public var indexes: [CompositeIndex]
    /// The single-field indexes enabled in collection-group scope.
    public var groupFields: [GroupField]
    /// True when every query runs, indexed or not (the emulator).
    public var servesAnyQuery: Bool

    /// A project with these indexes.
    public init(_ indexes: [CompositeIndex] = [], groupFields: [GroupField] = []) {
        self.indexes = indexes
        self.groupFields = groupFields
        self.servesAnyQuery = false
    }

    /// No composite index deployed: what a new project has.
    public static let none = FirestoreIndexes()
    /// Every query runs, as in the emulator ("does not track composite indexes").
    public static let anyQuery: FirestoreIndexes = {
        var indexes = FirestoreIndexes()
        indexes.servesAnyQuery = true
        return indexes
    }()

    /// FAILED_PRECONDITION, naming the index to create, when `query` needs one not deployed.
    func check(_ query: Query, project: String) throws(BackendError) {
        guard !servesAnyQuery else { return }
        // Equality filters alone on one collection: served by the automatic indexes, judged
        // without building anything (a client query's usual shape).
        if query.orderBy.isEmpty, !query.allDescendants, !(query.filter?.hasInequality ?? false) { return }
        for need in query.indexNeeds where !serves(need) {
            throw .failedPrecondition(
                "The query requires an index. You can create it here: \(IndexLink.url(for: need, project: project)) "
                    + "(firestore.indexes.json: \(need.suggestion))")
        }
    }

    /// Whether `equalField == value order by orderField` on `collection` is served, without
    /// allocating (the admin `fetch` a scheduled function runs every few minutes): no equality, or
    /// one on the ordered field, needs nothing; otherwise an index (equality, order ascending).
    func servesEquality(_ equalField: String?, thenOrder orderField: String, in collection: String) -> Bool {
        guard !servesAnyQuery, let equalField, equalField != orderField else { return true }
        let group = collection.lastIndex(of: "/").map { collection[collection.index(after: $0)...] } ?? collection[...]
        return indexes.contains { index in
            guard index.scope == .collection, index.collectionGroup == group, index.fields.count >= 2,
                  index.fields[0].path == equalField, index.fields[0].mode != .contains,
                  index.fields[1] == CompositeIndex.Field(orderField, .ascending) else { return false }
            return index.fields.count == 2 || (index.fields.count == 3 && index.fields[2] == CompositeIndex.Field(QueryField.documentName, .ascending))
        }
    }

    /// Whether a deployed index (or a merge of them) serves `need`.
    func serves(_ need: IndexNeed) -> Bool {
        switch need {
        case .groupField(let group, let field):
            return groupFields.contains { $0.collectionGroup == group && Self.matches($0.field, field) }
                || indexes.contains { $0.collectionGroup == group && $0.scope == .collectionGroup && $0.fields.count == 1 && Self.matches($0.fields[0], field) }
        case .composite(let group, let scope, let equalities, let order):
            if indexes.contains(where: { $0.collectionGroup == group && $0.scope == scope && Self.serves($0, equalities, order) }) { return true }
            // Index merging: one index per equality field, each with the same single order field.
            guard order.count == 1, equalities.count > 1 else { return false }
            return equalities.allSatisfy { equality in
                indexes.contains { $0.collectionGroup == group && $0.scope == scope && Self.serves($0, [equality], order) }
            }
        }
    }

    /// Whether `index` holds exactly the equality fields (in any order) then the order fields; a
    /// trailing `__name__` in the last order's direction is what every index ends with anyway.
    private static func serves(_ index: CompositeIndex, _ equalities: [CompositeIndex.Field], _ order: [CompositeIndex.Field]) -> Bool {
        var fields = index.fields
        if let last = fields.last, last.path == QueryField.documentName, last.mode == (order.last?.mode ?? .ascending) { fields.removeLast() }
        guard fields.count == equalities.count + order.count else { return false }
        let head = fields.prefix(equalities.count)
        guard equalities.allSatisfy({ equality in head.contains { matches($0, equality) } }) else { return false }
        return Array(fields.suffix(order.count)) == order
    }

    /// Whether an indexed field serves a needed one: an equality by either direction.
    private static func matches(_ indexed: CompositeIndex.Field, _ needed: CompositeIndex.Field) -> Bool {
        guard indexed.path == needed.path else { return false }
        if needed.mode == .contains || indexed.mode == .contains { return indexed.mode == needed.mode }
        return true
    }
}
