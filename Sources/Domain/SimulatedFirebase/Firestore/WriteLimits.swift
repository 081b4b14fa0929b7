/// Firestore's limits on the names and the nesting a write may use (Firestore docs, "Usage and
/// limits"; the emulator answers each with INVALID_ARGUMENT, docs/real-firestore.md): a collection
/// or document id is at most 1,500 bytes, neither `.` nor `..`, and not `__…__` (reserved); a
/// field name is not empty, at most 1,500 bytes and not `__…__`; maps and arrays nest at most 20
/// deep under a field. As the emulator judges them: ids and reserved names per write; empty and
/// long names and the nesting on the documents a commit leaves, before any precondition.
enum WriteLimits {
    /// Bytes a collection id, document id or field name may have.
    static let nameBytesMaximum = 1_500
    /// Maps and arrays nested under one top-level field.
    static let depthMaximum = 20

    /// INVALID_ARGUMENT for the first id of `path` Firestore refuses; a delete may name an id
    /// longer than the limit (nothing is stored), as the emulator lets it.
    static func check(_ path: DocumentPath, deleting: Bool = false) throws(BackendError) {
        if let problem = idProblem(Substring(path.id), lengthLimited: !deleting) { throw .invalidArgument("document id \(preview(path.id)) \(problem)") }
        // Segment by segment in place (a `split` would allocate on every write).
        let collection = path.collection
        var start = collection.startIndex
        while true {
            let end = collection[start...].firstIndex(of: "/") ?? collection.endIndex
            if let problem = idProblem(collection[start..<end], lengthLimited: !deleting) {
                throw .invalidArgument("id \(preview(String(collection[start..<end]))) in \(preview(collection)) \(problem)")
            }
            guard end < collection.endIndex else { return }
            start = collection.index(after: end)
        }
    }

    /// INVALID_ARGUMENT for a field name or a nesting depth Firestore refuses in `fields`.
    static func check(_ fields: Fields) throws(BackendError) {
        for (name, value) in fields {
            try checkFieldName(Substring(name))
            try check(value, depth: 0)
        }
    }

    /// INVALID_ARGUMENT for a reserved name (`__…__`) anywhere in what one write names: checked
    /// per write when a commit writes a document more than once (a later write could replace the
    /// name); otherwise the document the write leaves is judged (`check(_:)`), which names it too.
    static func refuseReservedNames(_ fields: Fields) throws(BackendError) {
        for (name, value) in fields {
            if isReserved(Substring(name)) { throw .invalidArgument("field name \(name) is reserved") }
            try refuseReservedNames(value)
        }
    }

    /// `refuseReservedNames` for the maps inside `value`.
    static func refuseReservedNames(_ value: Value) throws(BackendError) {
        switch value {
        case .map(let fields): try refuseReservedNames(fields)
        case .array(let elements): for element in elements { try refuseReservedNames(element) }
        default: break
        }
    }

    /// `refuseReservedNames` for each segment of a field path (`a.b`).
    static func refuseReservedNames(inPath path: String) throws(BackendError) {
        // Only a path with "__" somewhere can hold a reserved segment: one pass over the bytes.
        var underscores = 0
        var pair = false
        for byte in path.utf8 {
            underscores = byte == UInt8(ascii: "_") ? underscores + 1 : 0
            if underscores == 2 { pair = true; break }
        }
        guard pair else { return }
        for segment in path.split(separator: ".") where isReserved(segment) { throw .invalidArgument("field name \(segment) is reserved") }
    }

    /// `value` sits under `depth` maps; its own maps and arrays add to it.
    static func check(_ value: Value, depth: Int) throws(BackendError) {
        switch value {
        case .map(let fields):
            guard depth < depthMaximum else { throw tooDeep }
            for (name, inner) in fields {
                try checkFieldName(Substring(name))
                try check(inner, depth: depth + 1)
            }
        case .array(let elements):
            guard depth < depthMaximum else { throw tooDeep }
            for element in elements { try check(element, depth: depth + 1) }
        default:
            break
        }
    }

    private static var tooDeep: BackendError { .invalidArgument("a value nests maps and arrays more than \(depthMaximum) deep") }

    private static func checkFieldName(_ name: Substring) throws(BackendError) {
        let bytes = name.utf8.count
        if bytes == 0 { throw .invalidArgument("a field name is empty") }
        if bytes > nameBytesMaximum { throw .invalidArgument("field name \(preview(String(name))) is longer than \(nameBytesMaximum) bytes") }
        if bytes >= 4 && isReserved(name) { throw .invalidArgument("field name \(name) is reserved") }
    }

    private static func idProblem(_ id: Substring, lengthLimited: Bool) -> String? {
        if id == "." || id == ".." { return "may not be . or .." }
        if lengthLimited && id.utf8.count > nameBytesMaximum { return "is longer than \(nameBytesMaximum) bytes" }
        if isReserved(id) { return "is reserved (__…__)" }
        return nil
    }

    /// `__…__`: at least four bytes, two underscores at each end (compared as bytes: a
    /// `Character` comparison costs a grapheme break per call, and this runs for every name written).
    private static func isReserved(_ name: Substring) -> Bool {
        let utf8 = name.utf8
        guard utf8.count >= 4 else { return false }
        let underscore = UInt8(ascii: "_")
        var front = utf8.startIndex
        guard utf8[front] == underscore else { return false }
        front = utf8.index(after: front)
        guard utf8[front] == underscore else { return false }
        var back = utf8.index(before: utf8.endIndex)
        guard utf8[back] == underscore else { return false }
        back = utf8.index(before: back)
        return utf8[back] == underscore
    }

    private static func preview(_ name: String) -> String { name.count > 40 ? "\(name.prefix(40))… (\(name.utf8.count) bytes)" : name }
}
