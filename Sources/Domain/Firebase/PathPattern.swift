/// A collection pattern of security rules and triggers (`users/{email}/notifications`): its
/// segments, split once, matched against a collection path without splitting the path.
///
/// The meaning is `split(separator: "/")`'s on both sides (empty segments dropped): the path
/// matches when it has as many segments as the pattern and each literal segment equals the
/// path's; a `{name}` segment matches any one segment. An ASCII path is matched on its UTF-8 bytes
/// (a `String.split` at every trigger dispatch and rule evaluation was ~5 % of a load test's
/// instructions); any other goes through `split`, whose `Character` comparison treats
/// canonically equivalent spellings as equal.
struct PathPattern: Sendable {
    /// The pattern as written.
    let pattern: String
    /// Its segments as `split(separator: "/")` gives them.
    let segments: [Substring]
    /// Per segment, nil for a wildcard or the literal's bytes; nil as a whole when a literal is
    /// not ASCII (then every match goes through `split`).
    private let literals: [[UInt8]?]?

    /// The pattern `pattern`.
    init(_ pattern: String) {
        self.pattern = pattern
        segments = pattern.split(separator: "/")
        let literals = segments.map { Self.isWildcard($0) ? nil : Array($0.utf8) }
        self.literals = literals.allSatisfy { $0?.allSatisfy { $0 < 0x80 } ?? true } ? literals : nil
    }

    /// Whether `segment` is a `{name}` wildcard.
    static func isWildcard(_ segment: Substring) -> Bool { segment.first == "{" && segment.last == "}" }

    /// Whether the collection path `path` matches.
    func matches(_ path: String) -> Bool {
        if let literals, let matched = Self.matchASCII(literals, path) { return matched }
        return Self.matches(segments, path.split(separator: "/"))
    }

    /// The reference comparison: segment by segment, as `Substring`s.
    static func matches(_ pattern: [Substring], _ segments: [Substring]) -> Bool {
        guard pattern.count == segments.count else { return false }
        for (p, s) in zip(pattern, segments) where !isWildcard(p) && p != s { return false }
        return true
    }

    /// The match on `path`'s bytes, or nil if `path` is not ASCII.
    private static func matchASCII(_ literals: [[UInt8]?], _ path: String) -> Bool? {
        var path = path
        return path.withUTF8 { bytes -> Bool? in
            var matched = true
            var index = 0
            var start = 0
            var position = 0
            while position <= bytes.count {
                let atEnd = position == bytes.count
                if !atEnd {
                    let byte = bytes[position]
                    if byte >= 0x80 { return nil }
                    if byte != UInt8(ascii: "/") {
                        position += 1
                        continue
                    }
                }
                if position > start {  // a non-empty segment: bytes[start..<position]
                    if index >= literals.count {
                        matched = false
                    } else if matched, let literal = literals[index], !literal.elementsEqual(bytes[start..<position]) {
                        matched = false
                    }
                    index += 1
                }
                position += 1
                start = position
            }
            return matched && index == literals.count
        }
    }

    /// Segment `index` of the document path `collection/id` as `split(separator: "/")` gives it
    /// (nil past the end), without building the joined path when both parts are ASCII.
    static func segment(_ index: Int, collection: String, id: String) -> String? {
        guard index >= 0 else { return nil }
        guard collection.utf8.allSatisfy({ $0 < 0x80 }), id.utf8.allSatisfy({ $0 < 0x80 }) else {
            // A non-ASCII part: a "/" followed by a combining mark is no separator to `split`.
            let segments = (collection + "/" + id).split(separator: "/")
            return index < segments.count ? String(segments[index]) : nil
        }
        var remaining = index
        for part in [collection, id] {
            var part = part
            let found = part.withUTF8 { bytes -> String? in
                var start = 0
                for position in 0...bytes.count where position == bytes.count || bytes[position] == UInt8(ascii: "/") {
                    if position > start {
                        if remaining == 0 { return String(decoding: bytes[start..<position], as: UTF8.self) }
                        remaining -= 1
                    }
                    start = position + 1
                }
                return nil
            }
            if let found { return found }
        }
        return nil
    }
}
