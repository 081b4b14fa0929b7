/// A single-field index of one collection: for each value of `field`, the ids of the documents
/// holding it, sorted. Kept by `CollectionStore` on every commit once a query asked for it.
struct EqualityIndex: Sendable {
    let field: String
    private var ids: [Value: [String]] = [:]

    /// Builds the index over the documents that exist now.
    init(field: String, documents: some Sequence<DocumentSnapshot>) {
        self.field = field
        for snapshot in documents {
            if let value = snapshot.fields?[field] { ids[value, default: []].append(snapshot.path.id) }
        }
        for value in Array(ids.keys) { ids[value]!.sort() }
    }

    /// The ids of the documents whose field equals `value`, sorted.
    func ids(for value: Value) -> [String] { ids[value] ?? [] }

    /// Moves `id` from its old value's list to its new one (nil fields: the document does not exist).
    mutating func update(id: String, from old: Fields?, to new: Fields?) {
        let before = old?[field], after = new?[field]
        guard before != after else { return }
        if let before, ids[before] != nil {
            SortedIds.remove(id, from: &ids[before, default: []])
            if ids[before]!.isEmpty { ids[before] = nil }
        }
        if let after { SortedIds.insert(id, into: &ids[after, default: []]) }
    }
}
