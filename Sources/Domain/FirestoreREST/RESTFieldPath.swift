/// Field paths as the REST API spells them: dot-separated segments, a segment that is not a plain
/// identifier (`[A-Za-z_][A-Za-z0-9_]*`) quoted in backticks with `\` escaping `` ` `` and `\`.
public enum RESTFieldPath {
    /// The REST spelling of a path given as its segments.
    public static func encode(_ segments: [String]) -> String {
        segments.map(quote).joined(separator: ".")
    }

    /// The REST spelling of a dotted path as the simulated Firebase writes it (`fcmTokens.tok1`).
    public static func encode(dotted path: String) -> String {
        encode(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    static func quote(_ segment: String) -> String {
        if isPlain(segment) { return segment }
        var quoted = "`"
        for character in segment {
            if character == "`" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "`"
    }

    static func isPlain(_ segment: String) -> Bool {
        guard let first = segment.utf8.first, first == 95 || (first | 32) >= 97 && (first | 32) <= 122 else { return false }
        return segment.utf8.allSatisfy { $0 == 95 || ($0 >= 48 && $0 <= 57) || (($0 | 32) >= 97 && ($0 | 32) <= 122) }
    }
}
