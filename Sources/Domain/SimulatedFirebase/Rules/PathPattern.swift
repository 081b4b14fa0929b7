/// A collection pattern of security rules and triggers (`users/{email}/notifications`): its
/// segments, split once, matched against a collection path without splitting the path.
///
/// The meaning is `split(separator: "/")`'s on both sides (empty segments dropped): the path
/// matches when it has as many segments as the pattern and each literal segment equals the
/// path's; a `{name}` segment matches any one segment, and a last `{name=**}` segment any number
/// of them, none included (rules version 2's recursive wildcard: `{document=**}` alone matches
/// every collection; `cities/{city}/{rest=**}` also the documents of `cities` themselves). An ASCII path is matched on its UTF-8 bytes
/// (a `String.split` at every trigger dispatch and rule evaluation would be a sizeable share of a
/// load test's work); any other goes through `split`, whose `Character` comparison treats
/// canonically equivalent spellings as equal.
package struct PathPattern: Sendable {
    /// The pattern as written.
    let pattern: String
    /// Its segments as `split(separator: "/")` gives them.
    let segments: [Substring]
    /// Per segment, nil for a wildcard or the literal's bytes; nil as a whole when a literal is
    /// not ASCII (then every match goes through `split`).
    private let literals: [[UInt8]?]?

    /// The pattern `pattern`.
    package init(_ pattern: String) {
        self.pattern = pattern
        segments = pattern.split(separator: "/")
        let literals = segments.map { Self.isWildcard($0) ? nil : Array($0.utf8) }
        self.literals = literals.allSatisfy { $0.map(Self.isASCII) ?? true } ? literals : nil
    }

    /// Whether `segment` is a `{name}` wildcard.
    static func isWildcard(_ segment: Substring) -> Bool { segment.first == "{" && segment.last == "}" }

    /// Whether `segment` is a `{name=**}` recursive wildcard.
    static func isRecursive(_ segment: Substring) -> Bool { isWildcard(segment) && segment.hasSuffix("=**}") }

    /// Whether the collection path `path` matches.
    package func matches(_ path: String) -> Bool {
        if let last = segments.last, Self.isRecursive(last) {
            let prefix = segments.dropLast()
            let parts = path.split(separator: "/")
            // After a document (`cities/{city}/{rest=**}`), none more is that document itself: its
            // collection matches when the document's segment is a wildcard (the id is not in `path`).
            if prefix.count % 2 == 0, let last = prefix.last, Self.isWildcard(last), parts.count == prefix.count - 1 {
                return Self.matches(Array(prefix.dropLast()), parts)
            }
            return parts.count >= prefix.count && Self.matches(Array(prefix), Array(parts.prefix(prefix.count)))
        }
        guard let literals, Self.isASCII(path.utf8) else { return Self.matches(segments, path.split(separator: "/")) }
        var index = 0
        var matched = true
        Self.forEachSegment(of: path) { segment in
            guard index < literals.count, literals[index].map({ $0.elementsEqual(segment) }) ?? true else {
                matched = false
                return false
            }
            index += 1
            return true
        }
        return matched && index == literals.count
    }

    /// The reference comparison: segment by segment, as `Substring`s.
    static func matches(_ pattern: [Substring], _ segments: [Substring]) -> Bool {
        guard pattern.count == segments.count else { return false }
        for (p, s) in zip(pattern, segments) where !isWildcard(p) && p != s { return false }
        return true
    }

    /// Segment `index` of the document path `collection/id` as `split(separator: "/")` gives it
    /// (nil past the end), without building the joined path when both parts are ASCII.
    static func segment(_ index: Int, collection: String, id: String) -> String? {
        guard index >= 0 else { return nil }
        guard isASCII(collection.utf8), isASCII(id.utf8) else {
            // A non-ASCII part: a "/" followed by a combining mark is no separator to `split`.
            let segments = (collection + "/" + id).split(separator: "/")
            return index < segments.count ? String(segments[index]) : nil
        }
        var remaining = index
        var found: String?
        for part in [collection, id] where found == nil {
            forEachSegment(of: part) { segment in
                guard remaining == 0 else {
                    remaining -= 1
                    return true
                }
                found = String(decoding: segment, as: UTF8.self)
                return false
            }
        }
        return found
    }

    /// Whether every byte is ASCII (then splitting on the byte "/" is `split`'s meaning).
    private static func isASCII<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        // In place when the bytes are contiguous (a native or small string: every path here), an
        // OR over the buffer: `UTF8View`'s iterator is far costlier per path.
        bytes.withContiguousStorageIfAvailable { buffer in
            var bits: UInt8 = 0
            for byte in buffer { bits |= byte }
            return bits < 0x80
        } ?? bytes.allSatisfy { $0 < 0x80 }
    }

    /// Calls `body` with each non-empty segment between "/" bytes of `text`, in order, until it
    /// returns false.
    private static func forEachSegment(of text: String, _ body: (Slice<UnsafeBufferPointer<UInt8>>) -> Bool) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for position in 0...bytes.count where position == bytes.count || bytes[position] == UInt8(ascii: "/") {
                if position > start, !body(bytes[start..<position]) { return }
                start = position + 1
            }
        }
    }
}
