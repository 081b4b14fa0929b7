@testable import Domain
@testable import SimulatedFirebase
import Testing

/// How Firestore combines matching statements (docs/domain.md, "Security rules"): a request is
/// allowed when any matching statement allows it, whatever their order, so a broad rule cannot be
/// narrowed by a specific one; `{name=**}` matches any number of segments (after a document
/// wildcard, none: that document itself). The emulator agrees on
/// SafeNSound's catch-all world (`rehearse conformance --apps safensound-catch-all`).
@Suite struct SecurityRulesMatchTests {
    static func request(_ collection: String, uid: String?) -> RuleRequest {
        RuleRequest(auth: uid.map { AuthContext(uid: $0) }, operation: .get, path: DocumentPath(collection, "ana"), resource: [:], data: nil, lookup: { _ in nil })
    }

    @Test func anyMatchingStatementGrantsWhateverTheOrder() {
        var specificFirst = SecurityRules()
        specificFirst.match("users") { $0.auth?.uid == $0.path.id }
        specificFirst.match("{document=**}") { $0.auth != nil }
        var broadFirst = SecurityRules()
        broadFirst.match("{document=**}") { $0.auth != nil }
        broadFirst.match("users") { $0.auth?.uid == $0.path.id }
        for rules in [specificFirst, broadFirst] {
            #expect(rules.allows(Self.request("users", uid: "ben")), "the broad rule grants ben's read of ana")
            #expect(rules.allows(Self.request("users", uid: "ana")))
            #expect(!rules.allows(Self.request("users", uid: nil)), "no statement grants a signed-out read")
        }
        #expect(specificFirst.decide(Self.request("users", uid: "ben")).rule == "{document=**}", "the statement that granted it is counted")
        #expect(specificFirst.decide(Self.request("users", uid: nil)).rule == "users", "a denial is counted on the first match")
    }

    @Test(arguments: [
        ("{document=**}", "users", true), ("{document=**}", "users/u1/notifications", true),
        ("users/{rest=**}", "users", true), ("users/{rest=**}", "users/u1/notifications", true), ("users/{rest=**}", "posts", false),
        ("users/{uid}/{rest=**}", "users", true), ("users/admin/{rest=**}", "users", false), ("users/{uid}/{rest=**}", "users/u1/notifications", true),
        ("users/{uid}/notifications", "users/u1/notifications", true), ("users/{uid}/notifications", "users/u1/notifications/n1/x", false),
    ])
    func recursiveWildcardsMatchAnyDepth(pattern: String, collection: String, matches: Bool) {
        #expect(PathPattern(pattern).matches(collection) == matches, "\(pattern) ~ \(collection)")
    }
}
