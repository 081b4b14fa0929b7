import FirebaseHarness
import Harness
import SimulatedFirebase

extension FriendHandshakeScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let oneFriendshipPerPair = CheckDeclaration(
            .always, "one-friendship-per-pair", "at most one friendship document links a pair")
        static let noDuplicateRequests = CheckDeclaration(
            .always, "no-duplicate-requests", "at most one open request per pair, and none between friends")
        static let crossingRequestsBefriend = CheckDeclaration(
            .always, "crossing-requests-befriend", "two users sending at once never both end with an open request")
        static let friendshipBidirectional = CheckDeclaration(
            .eventually, "friendship-bidirectional", "a is in b's friendIds exactly when b is in a's and a friendship document links them")
        static let crossingBefriended = CheckDeclaration(
            .sometimes, "crossing-befriended", "a crossing request completed the handshake")
        static let accepted = CheckDeclaration(
            .sometimes, "accepted", "a request was accepted from the inbox")
        static let removed = CheckDeclaration(
            .sometimes, "removed", "a friendship was removed")
        static let rulesAllowTheApp = RulesAllowTheApp.check
    }

}
