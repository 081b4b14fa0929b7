/// A document's storage size as Firestore counts it against its 1 MiB limit (MODEL_RULES §25;
/// Firestore's "Storage size calculations" page): the document name (each collection and document
/// id's UTF-8 bytes + 1, plus 16), every field name (UTF-8 bytes + 1) and value, plus 32. A string
/// is its UTF-8 bytes + 1; null and booleans 1; integers, doubles and timestamps 8; an array the sum
/// of its elements; a map the sum of its keys and values.
package enum DocumentSize {
    /// The size of `fields` stored at `path`, or of the document name alone when it is deleted.
    /// Stops counting once past `limit` (a write that big fails; its exact size is not needed).
    package static func of(_ fields: Fields, at path: DocumentPath, limit: Int = .max) -> Int {
        var total = name(path) + 32
        for (key, value) in fields {
            total += key.utf8.count + 1 + of(value)
            if total > limit { return total }
        }
        return total
    }

    /// The size of a document name: its segments (UTF-8 bytes + 1 each) plus 16.
    package static func name(_ path: DocumentPath) -> Int {
        // A collection path holds its own separators ("users/u1/notifications"): each segment
        // counts one byte more, so the separators count themselves.
        path.collection.utf8.count + 1 + path.id.utf8.count + 1 + 16
    }

    /// The size of one value.
    package static func of(_ value: Value) -> Int {
        switch value {
        case .null, .bool: return 1
        case .int, .double, .timestamp: return 8
        case .string(let string): return string.utf8.count + 1
        case .array(let elements): return elements.reduce(0) { $0 + of($1) }
        case .map(let fields): return fields.reduce(0) { $0 + $1.key.utf8.count + 1 + of($1.value) }
        }
    }
}
