import FirebaseHarness
import Harness
import SimulatedFirebase

extension StampCollectScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let collectorsConsistent = CheckDeclaration(
            .always, "collectors-consistent", "totalCollectors == collectorUserIds.count, no collector twice", operations: ["collect", "double-tap collect"])
        static let likeCountNotNegative = CheckDeclaration(
            .always, "like-count-not-negative", "likeCount is never negative", operations: ["like", "unlike"])
        static let likeCountMatchesLikes = CheckDeclaration(
            .eventually, "like-count-matches-likes", "each post's likeCount equals its likes sub-collection, once idle", operations: ["like", "unlike"])
        static let collectorsMatchRecords = CheckDeclaration(
            .eventually, "collectors-match-records", "collectorUserIds equals the users with a collected record", operations: ["collect", "double-tap collect"])
        static let doubleCollectRefused = CheckDeclaration(
            .sometimes, "double-collect-refused", "a second collect was refused as already collected", requires: [.atLeast(Parameter.collectPercent, 1)])
        static let likeJoined = CheckDeclaration(
            .sometimes, "like-joined", "a double-tapped like joined the request in flight", requires: [.atLeast(Parameter.doubleTapPercent, 1), .atMost(Parameter.collectPercent, 99)])
    }
}
