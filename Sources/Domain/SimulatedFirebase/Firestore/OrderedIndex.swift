/// A composite index of one collection, as Firestore keeps for a query such as
/// `where status == "scheduled" and scheduledFor <= t order by scheduledFor`: the documents whose
/// `equalField` equals `equalValue` (every document when there is none) and whose `orderField` is
/// a timestamp, sorted by that timestamp then id. Kept by `CollectionStore` on every commit.
struct OrderedIndex: Sendable {
    /// Which documents the index holds and the timestamp field it orders them by.
    struct Definition: Hashable, Sendable {
        let equalField: String?
        let equalValue: Value?
        let orderField: String
    }
    /// One indexed document.
    struct Entry: Comparable, Sendable {
        let time: Timestamp
        let id: String
        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.time, lhs.id) < (rhs.time, rhs.id) }
    }

    let definition: Definition
    private var entries: [Entry] = []

    /// Builds the index over the documents that exist now.
    init(_ definition: Definition, documents: some Sequence<DocumentSnapshot>) {
        self.definition = definition
        entries = documents.compactMap { snapshot in Self.key(definition, snapshot.fields).map { Entry(time: $0, id: snapshot.path.id) } }
        entries.sort()
    }

    /// The ordering time of a document with `fields`, or nil if the index does not hold it.
    private static func key(_ definition: Definition, _ fields: Fields?) -> Timestamp? {
        guard let fields else { return nil }
        if let equalField = definition.equalField, fields[equalField] != definition.equalValue { return nil }
        return fields[definition.orderField]?.timestampValue
    }

    /// The ids whose time lies in `lower...upper` (either bound may be absent), by time then id.
    func ids(from lower: Timestamp?, through upper: Timestamp?) -> [String] {
        var position = lower.map { bound in firstIndex { $0.time >= bound } } ?? 0
        var ids: [String] = []
        while position < entries.count, upper.map({ entries[position].time <= $0 }) ?? true {
            ids.append(entries[position].id)
            position += 1
        }
        return ids
    }

    /// Re-keys `id` after a commit changed its fields from `old` to `new` (nil: does not exist).
    mutating func update(id: String, from old: Fields?, to new: Fields?) {
        let before = Self.key(definition, old), after = Self.key(definition, new)
        guard before != after else { return }
        if let before {
            let entry = Entry(time: before, id: id)
            let position = firstIndex { !($0 < entry) }
            if position < entries.count, entries[position] == entry { entries.remove(at: position) }
        }
        if let after {
            let entry = Entry(time: after, id: id)
            let position = firstIndex { !($0 < entry) }
            entries.insert(entry, at: position)
        }
    }

    /// The first position whose entry satisfies `isAtOrAfter` (a predicate monotone in the order).
    private func firstIndex(where isAtOrAfter: (Entry) -> Bool) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(entries[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
