/// The changes of one `update` or `merge`, by field path (`"fcmTokens.tok1"` reaches into a map),
/// kept in key order: the order they are applied in.
///
/// Written as a dictionary literal (`["currentBid": .set(.double(5)), "bids": .arrayUnion([bid])]`),
/// as the SDKs' `[String: Any]` maps are. Kept sorted rather than as a `[String: FieldUpdate]`,
/// so no write hashes its keys into a dictionary and no commit sorts them again to apply them in
/// a fixed order. Keys compare as `String` does (canonically equivalent keys are one key, as in a
/// dictionary); a repeated key in a literal is a programming error.
public struct FieldUpdates: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field path and its change.
    public typealias Element = (key: String, update: FieldUpdate)

    struct Entry: Sendable, Hashable {
        var key: String
        var update: FieldUpdate
    }

    /// In ascending key order, keys unique.
    private(set) var entries: [Entry]

    /// No changes.
    public init() { entries = [] }

    /// `[path: change, …]`; a repeated key is a programming error, as in a `Dictionary` literal.
    public init(dictionaryLiteral elements: (String, FieldUpdate)...) {
        self.init(uniqueKeysWithValues: elements)
    }

    /// The changes of pairs with distinct keys (a repeated key is a programming error).
    public init<S: Sequence>(uniqueKeysWithValues pairs: S) where S.Element == (String, FieldUpdate) {
        entries = []
        entries.reserveCapacity(pairs.underestimatedCount)
        for (key, update) in pairs {
            // Pairs already in key order (literals are written so) append after one comparison.
            if let last = entries.last, !(last.key < key) {
                let (found, position) = find(key)
                precondition(!found, "FieldUpdates: repeated key \(key)")
                entries.insert(Entry(key: key, update: update), at: position)
            } else {
                entries.append(Entry(key: key, update: update))
            }
        }
    }

    /// The changes of a dictionary.
    public init(_ dictionary: [String: FieldUpdate]) {
        self.init(uniqueKeysWithValues: dictionary.map { key, update in (key, update) })
    }

    /// The change of `key`; setting `nil` removes it.
    public subscript(key: String) -> FieldUpdate? {
        get {
            let (found, position) = find(key)
            if found { return entries[position].update }
            return nil
        }
        set {
            let (found, position) = find(key)
            switch (found, newValue) {
            case (true, let update?): entries[position].update = update
            case (true, nil): entries.remove(at: position)
            case (false, let update?): entries.insert(Entry(key: key, update: update), at: position)
            case (false, nil): break
            }
        }
    }

    /// Whether there is no change.
    public var isEmpty: Bool { entries.isEmpty }
    /// How many field paths change.
    public var count: Int { entries.count }
    /// The field paths, in order.
    public var keys: [String] { entries.map(\.key) }

    /// The changes in key order.
    public func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }

    /// Walks the changes in key order.
    public struct Iterator: IteratorProtocol {
        var base: IndexingIterator<[Entry]>
        /// The next change.
        public mutating func next() -> Element? { base.next().map { ($0.key, $0.update) } }
    }

    /// Whether `key` is present, and its position (or where it would go): the first key not
    /// below it, by bisection.
    private func find(_ key: String) -> (found: Bool, position: Int) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low &+ high) >> 1
            if entries[middle].key < key { low = middle &+ 1 } else { high = middle }
        }
        return (low < entries.count && entries[low].key == key, low)
    }
}

extension FieldUpdates {
    /// These changes with every `serverTimestamp()` set to null instead.
    var serverTimestampsPending: FieldUpdates {
        guard entries.contains(where: { $0.update == .serverTimestamp }) else { return self }
        var copy = self
        for index in copy.entries.indices where copy.entries[index].update == .serverTimestamp {
            copy.entries[index].update = .set(.null)
        }
        return copy
    }
}
