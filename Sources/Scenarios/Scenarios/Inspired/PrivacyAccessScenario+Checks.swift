import FirebaseHarness
import Harness
import SimulatedFirebase

extension PrivacyAccessScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let noUnauthorisedRead = CheckDeclaration(
            .always, "no-unauthorised-read", "a profile read succeeds only if it is public or the users share a community", operations: ["read"])
        static let signedOutReadDenied = CheckDeclaration(
            .always, "signed-out-read-denied", "a signed-out client reads no profile", operations: ["read"])
        static let usernamesUnique = CheckDeclaration(
            .always, "usernames-unique", "no two users share a username")
        static let likeCountNotNegative = CheckDeclaration(
            .always, "like-count-not-negative", "stats.likeCount is never negative", operations: ["like", "unlike"])
        static let likeCountMatchesLikes = CheckDeclaration(
            .eventually, "like-count-matches-likes", "stats.likeCount equals likes/{userId} documents, once idle", operations: ["like", "unlike"])
        static let everyUserNamed = CheckDeclaration(
            .eventually, "every-user-named", "every profile got a username")
        static let readDenied = CheckDeclaration(
            .sometimes, "read-denied", "an unauthorised read was refused")
        static let readAllowed = CheckDeclaration(
            .sometimes, "read-allowed", "an authorised read of another profile succeeded")
    }
}
