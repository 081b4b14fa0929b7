/// Reading a query's field path from a document: dotted paths reach into maps; `__name__` is the
/// document's key, compared as its full path.
public enum QueryField {
    /// The document-key pseudo-field.
    public static let documentName = "__name__"

    /// The value at `path` in `fields`, nil when missing (a path through a non-map is missing).
    public static func value(_ path: String, in fields: Fields, path document: DocumentPath) -> Value? {
        if path == documentName { return .string(document.description) }
        if !path.utf8.contains(UInt8(ascii: ".")) { return fields[path] }
        var current: Value = .map(fields)
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard let next = current.mapValue?[String(segment)] else { return nil }
            current = next
        }
        return current
    }

    /// Document keys in Firestore's order: segment by segment of the full path, each by UTF-8 bytes.
    public static func compareNames(_ a: DocumentPath, _ b: DocumentPath) -> Int {
        var left = a.description.split(separator: "/").makeIterator()
        var right = b.description.split(separator: "/").makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?):
                let order = ValueOrder.compareUTF8(String(x), String(y))
                if order != 0 { return order }
            }
        }
    }
}
