/// The fields of one document, and of a map value: entries kept sorted by key.
///
/// A document has a handful of fields (an OUTBID notification seven, a bid five), so a
/// `Swift.Dictionary` spent most of its time hashing keys and most of its memory on empty
/// buckets (seven fields need sixteen, ~700 B; here ~320 B). Lookups scan the few entries of a
/// small map and bisect a large one; an insert shifts the entries after it, which costs what
/// copying the document on a write already costs. Keys compare as `String` does (canonically
/// equivalent keys are the same key, as in a dictionary). Iteration is in key order,
/// so nothing that walks the fields can depend on hashing. docs/performance.md, "Where the bytes
/// and instructions go: the data structures".
public struct Fields: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One field: its name and value.
    public typealias Element = (key: String, value: Value)
    /// A position among the fields, in key order.
    public typealias Index = Int

    @usableFromInline
    struct Entry: Sendable, Hashable {
        @usableFromInline var key: String
        @usableFromInline var value: Value
        @inlinable init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// Entries in ascending key order, keys unique.
    @usableFromInline var entries: [Entry]

    /// Maps of up to this many entries are scanned; larger ones are bisected.
    @usableFromInline static var scanLimit: Int { 12 }

    /// No fields.
    @inlinable public init() { entries = [] }

    /// `[key: value, …]`; a repeated key is a programming error, as in a `Dictionary` literal.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements, uniquingKeysWith: { _, _ in preconditionFailure("Fields literal has a repeated key") })
    }

    /// Fields from pairs with distinct keys (a repeated key is a programming error).
    public init<S: Sequence>(uniqueKeysWithValues pairs: S) where S.Element == (String, Value) {
        self.init(pairs, uniquingKeysWith: { _, _ in preconditionFailure("Fields: duplicate key") })
    }

    /// Fields from pairs, `combine` deciding the value of a repeated key (in the pairs' order).
    public init<S: Sequence>(_ pairs: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (String, Value) {
        entries = []
        entries.reserveCapacity(pairs.underestimatedCount)
        for (key, value) in pairs {
            // Pairs already in key order (literals are written so) append after one comparison.
            if let last = entries.last, !(last.key < key) {
                try insert(key, value, combine: combine)
            } else {
                entries.append(Entry(key: key, value: value))
            }
        }
    }

    /// Inserts `key` in order, or lets `combine` decide its value if present.
    private mutating func insert(_ key: String, _ value: Value, combine: (Value, Value) throws -> Value) rethrows {
        let (found, position) = find(key)
        if found {
            entries[position].value = try combine(entries[position].value, value)
        } else {
            entries.insert(Entry(key: key, value: value), at: position)
        }
    }

    /// The fields of a dictionary.
    public init(_ dictionary: [String: Value]) {
        entries = dictionary.map { Entry(key: $0.key, value: $0.value) }.sorted { $0.key < $1.key }
    }

    /// Whether `key` is present, and its position (or where it would go).
    @inlinable
    func find(_ key: String) -> (found: Bool, position: Int) {
        let count = entries.count
        if count <= Self.scanLimit {
            // The first key not below `key` (one comparison per smaller key; a mismatched `==`
            // costs a call as `<` does), then whether it is `key`.
            var position = 0
            while position < count && entries[position].key < key { position &+= 1 }
            return (position < count && entries[position].key == key, position)
        }
        var low = 0
        var high = count
        while low < high {
            let middle = (low &+ high) >> 1
            if entries[middle].key < key { low = middle &+ 1 } else { high = middle }
        }
        return (low < count && entries[low].key == key, low)
    }

    // MARK: Collection

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { entries.count }
    @inlinable public var count: Int { entries.count }
    @inlinable public var isEmpty: Bool { entries.isEmpty }
    /// The field at `position` (in key order).
    @inlinable public subscript(position: Int) -> Element {
        let entry = entries[position]
        return (entry.key, entry.value)
    }

    // MARK: Dictionary's API

    /// The value of `key`; setting `nil` removes it.
    @inlinable
    public subscript(key: String) -> Value? {
        get {
            // Not a ternary: its `nil` would be `Value.null` (Value is ExpressibleByNilLiteral).
            let (found, position) = find(key)
            if found { return entries[position].value }
            return nil
        }
        set {
            let (found, position) = find(key)
            switch (found, newValue) {
            case (true, let value?): entries[position].value = value
            case (true, nil): entries.remove(at: position)
            case (false, let value?): entries.insert(Entry(key: key, value: value), at: position)
            case (false, nil): break
            }
        }
    }

    /// The value of `key`, or `defaultValue` (which a modification stores).
    @inlinable
    public subscript(key: String, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }

    /// Sets `value` for `key` and returns the old value.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: String) -> Value? {
        let (found, position) = find(key)
        if found {
            let old = entries[position].value
            entries[position].value = value
            return old
        }
        entries.insert(Entry(key: key, value: value), at: position)
        return nil
    }

    /// Removes `key` and returns its value.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: String) -> Value? {
        let (found, position) = find(key)
        if found { return entries.remove(at: position).value }
        return nil
    }

    /// Removes every field.
    public mutating func removeAll() { entries.removeAll() }

    /// The field names, in order.
    public var keys: Keys { Keys(entries: entries) }
    /// The values, in key order.
    public var values: Values { Values(entries: entries) }

    /// The field names of some fields, in order.
    public struct Keys: RandomAccessCollection, Sendable {
        @usableFromInline let entries: [Entry]
        @inlinable init(entries: [Entry]) { self.entries = entries }
        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { entries.count }
        /// The name at `position`.
        @inlinable public subscript(position: Int) -> String { entries[position].key }
        /// Whether `key` is one of them (bisection, not a scan).
        @inlinable public func contains(_ key: String) -> Bool { Fields(sorted: entries).find(key).found }
    }

    /// The values of some fields, in key order.
    public struct Values: RandomAccessCollection, Sendable {
        @usableFromInline let entries: [Entry]
        @inlinable init(entries: [Entry]) { self.entries = entries }
        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { entries.count }
        /// The value at `position`.
        @inlinable public subscript(position: Int) -> Value { entries[position].value }
    }

    @inlinable init(sorted entries: [Entry]) { self.entries = entries }

    /// The fields `isIncluded` keeps.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> Fields {
        Fields(sorted: try entries.filter { try isIncluded(($0.key, $0.value)) })
    }

    /// The same keys with transformed values.
    public func mapValues(_ transform: (Value) throws -> Value) rethrows -> Fields {
        Fields(sorted: try entries.map { Entry(key: $0.key, value: try transform($0.value)) })
    }

    /// The same keys with transformed values, dropping those `transform` maps to `nil`.
    public func compactMapValues(_ transform: (Value) throws -> Value?) rethrows -> Fields {
        Fields(sorted: try entries.compactMap { entry in try transform(entry.value).map { Entry(key: entry.key, value: $0) } })
    }

    /// Adds `other`'s fields, `combine` deciding a key both have.
    public mutating func merge(_ other: Fields, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        for entry in other.entries { try insert(entry.key, entry.value, combine: combine) }
    }

    /// These fields with `other`'s added, `combine` deciding a key both have.
    public func merging(_ other: Fields, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows -> Fields {
        var result = self
        try result.merge(other, uniquingKeysWith: combine)
        return result
    }

    /// The fields as a dictionary.
    public var dictionary: [String: Value] {
        Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.key, $0.value) })
    }

    // MARK: Equality, hashing, text

    /// Same keys with equal values.
    @inlinable
    public static func == (lhs: Fields, rhs: Fields) -> Bool { lhs.entries == rhs.entries }

    /// Hashes the entries in key order (equal fields have equal, ordered entries).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }

    /// `{key:value,…}` in key order.
    public var description: String {
        "{" + entries.map { "\($0.key):\($0.value.description)" }.joined(separator: ",") + "}"
    }
}
