import FirebaseHarness
import Harness
import SimulatedFirebase

extension StampSocialScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let noZombiePost = CheckDeclaration(
            .always, "no-zombie-post", "every feed post has an author (a counter merged into a deleted post recreates it without one)",
            operations: ["comment", "delete-post"])
        static let countersNotNegative = CheckDeclaration(
            .always, "counters-not-negative", "commentCount, likeCount, followerCount and followingCount are never negative",
            operations: ["comment", "uncomment", "follow", "unfollow"])
        static let postCopyConsistent = CheckDeclaration(
            .eventually, "post-copy-consistent", "each user's users/{uid}/posts ids equal their feed posts' ids, once idle",
            operations: ["post", "delete-post"])
        static let noOrphans = CheckDeclaration(
            .eventually, "no-orphaned-comments-or-likes", "no comment or like document lies under a post that does not exist, once idle",
            operations: ["comment", "like", "delete-post"])
        static let commentCountMatches = CheckDeclaration(
            .eventually, "comment-count-matches-comments", "each post's commentCount equals its comments sub-collection, once idle",
            operations: ["comment", "uncomment"])
        static let likeCountMatches = CheckDeclaration(
            .eventually, "like-count-matches-likes", "each post's likeCount equals its likes sub-collection, once idle", operations: ["like"])
        static let followCountsMatch = CheckDeclaration(
            .eventually, "follow-counts-match-records",
            "each user's followingCount equals their following records and followerCount the records naming them, once idle",
            operations: ["follow", "unfollow"])
        static let commentOnDeletedRefused = CheckDeclaration(
            .sometimes, "comment-on-deleted-refused", "a comment on a deleted post was refused",
            requires: [.atLeast(Parameter.commentPercent, 1), .atLeast(Parameter.deletePostPercent, 1)])
        static let doubleFollowRefused = CheckDeclaration(
            .sometimes, "double-follow-refused", "the second tap of a double-tapped follow or unfollow was refused",
            requires: [.atLeast(Parameter.followPercent, 1), .atLeast(Parameter.doubleTapPercent, 1)])
    }
}
