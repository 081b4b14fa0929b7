extension Query {
    /// What this query needs beyond Firestore's automatic single-field indexes, one entry per
    /// conjunction of its filter that needs something (docs/domain.md, "Indexes"). Equality filters
    /// alone are served by merging single-field indexes; one ordered or range field alone by its
    /// single-field index; anything else (an equality with an order or range on another field,
    /// several ordered or range fields, `array-contains` with an order) needs a composite index whose
    /// order fields follow the query's order (flipped for `limitToLast`, as the SDKs send it).
    /// Collection-group queries that filter or order need indexes in collection-group scope.
    var indexNeeds: [IndexNeed] {
        let scope: CompositeIndex.Scope = allDescendants ? .collectionGroup : .collection
        let group = collection.split(separator: "/").last.map(String.init) ?? collection
        let order = effectiveOrder.filter { $0.field != QueryField.documentName }
        var needs: [IndexNeed] = []
        for conjunction in filter?.conjunctions ?? [[]] {
            let equalities = Self.equalityFields(conjunction)
            let pinned = Set(equalities.filter { $0.mode != .contains }.map(\.path))
            let ordered = order.filter { !pinned.contains($0.field) }.map {
                CompositeIndex.Field($0.field, $0.descending != limitToLast ? .descending : .ascending)
            }
            let need: [IndexNeed]
            switch (ordered.count, scope) {
            case (0, .collection): need = []
            case (0, .collectionGroup): need = equalities.map { .groupField(collectionGroup: group, $0) }
            case (1, .collection) where equalities.isEmpty: need = []
            case (1, .collectionGroup) where equalities.isEmpty: need = [.groupField(collectionGroup: group, ordered[0])]
            default: need = [.composite(collectionGroup: group, scope: scope, equalities: equalities, order: ordered)]
            }
            for entry in need where !needs.contains(entry) { needs.append(entry) }
        }
        return needs
    }

    /// The equality-like fields of one conjunction, by path (`==`, `in`, `IS_NULL`, `IS_NAN` as an
    /// equality; `array-contains` and `array-contains-any` as CONTAINS); the key is always indexed.
    private static func equalityFields(_ conjunction: [QueryFilter]) -> [CompositeIndex.Field] {
        var fields: [CompositeIndex.Field] = []
        for filter in conjunction {
            let field: CompositeIndex.Field
            switch filter {
            case .field(let path, .equal, _), .field(let path, .in, _), .unary(let path, .isNull), .unary(let path, .isNaN):
                field = CompositeIndex.Field(path, .ascending)
            case .field(let path, .arrayContains, _), .field(let path, .arrayContainsAny, _):
                field = CompositeIndex.Field(path, .contains)
            default:
                continue
            }
            if field.path != QueryField.documentName, !fields.contains(field) { fields.append(field) }
        }
        return fields.sorted { ($0.path, $0.mode == .contains ? 1 : 0) < ($1.path, $1.mode == .contains ? 1 : 0) }
    }
}

extension QueryFilter {
    /// The filter in disjunctive normal form: each inner list is a conjunction of comparisons and
    /// unary tests (Firestore plans each disjunction of an `or` query on its own).
    var conjunctions: [[QueryFilter]] {
        switch self {
        case .field, .unary: return [[self]]
        case .or(let filters): return filters.flatMap(\.conjunctions)
        case .and(let filters):
            return filters.reduce([[]]) { partial, filter in
                partial.flatMap { prefix in filter.conjunctions.map { prefix + $0 } }
            }
        }
    }
}
