@testable import Domain
@testable import SimulatedFirebase
import Testing

/// `PathPattern` against the definition it replaces: both sides split with
/// `split(separator: "/")` and compared as `Substring`s, segment by segment.
@Suite struct PathPatternTests {
    /// Segments that exercise the byte path and its fallback: empty (doubled, leading and trailing
    /// slashes), wildcards, a prefix of another segment, CR LF (one `Character`), non-ASCII, a
    /// canonically equivalent pair, and a combining mark that joins a "/" into one `Character`.
    static let pieces = [
        "users", "user", "usersx", "notifications", "{uid}", "{email}", "{", "}", "{}", "",
        "u1@knb.org", "a\r\nb", "café", "cafe\u{301}", "\u{301}x", "日本",
    ]

    static func reference(_ pattern: String, _ path: String) -> Bool {
        PathPattern.matches(pattern.split(separator: "/"), path.split(separator: "/"))
    }

    static func randomPath(_ random: inout TestGenerator) -> String {
        (0..<random.next(5)).map { _ in pieces[random.next(pieces.count)] }.joined(separator: "/")
    }

    @Test("a match is the split-and-compare match, for 20,000 random patterns and paths")
    func matchesTheSplitDefinition() {
        var random = TestGenerator(state: 29)
        var matched = 0
        for _ in 0..<20_000 {
            let pattern = Self.randomPath(&random)
            // Half the paths are the pattern with its wildcards filled in, so matches are common.
            let path = random.next(2) == 0 ? Self.randomPath(&random) : pattern.split(separator: "/", omittingEmptySubsequences: false)
                .map { PathPattern.isWildcard($0) ? Self.pieces[random.next(Self.pieces.count)] : String($0) }
                .joined(separator: "/")
            let expected = Self.reference(pattern, path)
            #expect(PathPattern(pattern).matches(path) == expected, "pattern \(pattern.debugDescription), path \(path.debugDescription)")
            if expected { matched += 1 }
        }
        #expect(matched > 2_000, "the sample should hold matches too")
    }

    @Test("known answers")
    func knownAnswers() {
        #expect(PathPattern("users/{email}/notifications").matches("users/u1@knb.org/notifications"))
        #expect(PathPattern("users/{email}/notifications").matches("/users//u1/notifications/"))
        #expect(!PathPattern("users/{email}/notifications").matches("users/notifications"))
        #expect(!PathPattern("users/{email}/notifications").matches("users/u1/notification"))
        #expect(!PathPattern("users").matches("users/u1"))
        #expect(PathPattern("users").matches("users"))
        #expect(PathPattern("cafe\u{301}").matches("café"), "canonically equivalent spellings match, as `Substring` equality says")
        #expect(!PathPattern("users/{uid}").matches("users/\u{301}x"), "a combining mark after \"/\" joins the two segments")
    }

    @Test("segment(_:collection:id:) is segment i of split(collection + \"/\" + id)")
    func segmentsMatchTheSplitDefinition() {
        var random = TestGenerator(state: 31)
        for _ in 0..<5_000 {
            let collection = Self.randomPath(&random)
            let id = Self.pieces[random.next(Self.pieces.count)]
            let segments = (collection + "/" + id).split(separator: "/")
            for index in -1...6 {
                let expected = index >= 0 && index < segments.count ? String(segments[index]) : nil
                #expect(PathPattern.segment(index, collection: collection, id: id) == expected, "\(collection.debugDescription) + \(id.debugDescription), segment \(index)")
            }
        }
    }
}
