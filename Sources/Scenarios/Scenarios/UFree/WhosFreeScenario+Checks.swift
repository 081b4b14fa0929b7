import FirebaseHarness
import Harness
import SimulatedFirebase

extension WhosFreeScenario {
    /// The checks this scenario makes, as values: call sites name them.
    enum Check {
        static let badgeMatchesFriends = CheckDeclaration(
            .always, "badge-matches-friends",
            "once a refresh and its background upsert have finished, the badge counts per day the friends the server holds as free or partly free",
            operations: ["refresh"])
        static let storeMatchesServer = CheckDeclaration(
            .always, "store-matches-server",
            "once a refresh and its background upsert have finished, the device's store holds each friend's status per day as the server does",
            operations: ["refresh"])
        static let refreshed = CheckDeclaration(
            .sometimes, "refreshed", "a refresh read every friend's days and was judged")
    }
}
