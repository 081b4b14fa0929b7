@testable import Domain
@testable import SimulatedFirebase
import Testing

/// `DocumentPath`'s order is the order of the full path strings (the order transactions lock
/// documents in), also where `<` compares ids alone (one collection).
@Suite struct DocumentPathOrderTests {
    /// Collections and ids chosen to straddle the shortcut: shared prefixes, sub-collections,
    /// '/' against other ASCII, and non-ASCII text in composed and decomposed form.
    static let collections = [
        "a", "a/b/c", "ab", "honors", "honors/h1/bids", "honors/h10/bids", "users", "users/u1/notifications",
        "caf\u{E9}", "cafe\u{301}", "z",
    ]
    static let ids = ["1", "10", "2", "a", "a-b", "a.b", "A", "b", "caf\u{E9}", "cafe\u{301}", "\u{301}x", "\u{2260}", "~"]

    @Test func ordersAsTheFullPathStringsDo() {
        let paths = Self.collections.flatMap { collection in Self.ids.map { DocumentPath(collection, $0) } }
        var compared = 0
        for lhs in paths {
            for rhs in paths {
                // Exactly one of <, >, == (a strict total order, as a lock order must be).
                #expect([lhs < rhs, rhs < lhs, lhs == rhs].filter { $0 }.count == 1, "\(lhs.collection)|\(lhs.id) vs \(rhs.collection)|\(rhs.id)")
                // The reference: the path text built here, compared as Swift compares strings.
                // Skipped where the two collections are one text in two normalization forms:
                // there `String`'s `<` is not even an order ("cafe\u{301}/1" < "caf\u{E9}/10"
                // and the reverse are both false on Swift 6.3), while the ids still order these.
                let sameTextTwoForms = lhs.collection == rhs.collection && !lhs.collection.utf8.elementsEqual(rhs.collection.utf8)
                guard !sameTextTwoForms else { continue }
                let expected = (lhs.collection + "/" + lhs.id) < (rhs.collection + "/" + rhs.id)
                #expect(
                    (lhs < rhs) == expected,
                    "\(lhs.collection)|\(lhs.id) < \(rhs.collection)|\(rhs.id): expected \(expected)")
                compared += 1
            }
        }
        #expect(compared > paths.count * (paths.count - 2 * Self.ids.count))
        // Transitive over the table: sorted, no later path is below an earlier one.
        let sorted = paths.sorted()
        for i in sorted.indices { for j in sorted.indices where j > i { #expect(!(sorted[j] < sorted[i])) } }
    }

    @Test func sortingASetGivesTheLockOrder() {
        let paths: Set<DocumentPath> = [
            DocumentPath("honors/h1/bids", "b2"), DocumentPath("honors", "h1"), DocumentPath("honors/h1/bids", "b10"),
            DocumentPath("users", "u1"), DocumentPath("honors", "h10"),
        ]
        #expect(paths.sorted().map(\.description) == [
            "honors/h1", "honors/h1/bids/b10", "honors/h1/bids/b2", "honors/h10", "users/u1",
        ])
    }
}
