import FirebaseHarness
import Harness
import SimulatedFirebase

extension LikeStormScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let likeCountMatchesLikes = CheckDeclaration(
            .always, "like-count-matches-likes", "likeCount == likes.count on every post", operations: ["like", "unlike", "double-tap"])
        static let likeCountNotNegative = CheckDeclaration(
            .always, "like-count-not-negative", "likeCount is never negative", operations: ["like", "unlike", "double-tap"])
        static let replyCountMatchesReplies = CheckDeclaration(
            .eventually, "reply-count-matches-replies", "replyCount == number of replies, once idle", operations: ["reply", "delete"])
        static let likeNotifiedOncePerLiker = CheckDeclaration(
            .always, "like-notified-once-per-liker",
            "at most one POST_LIKE per post and liker (inbox, and push per token), to the post's author, for users who sent a like",
            operations: ["like", "unlike", "double-tap"])
        static let everyLikeNotified = CheckDeclaration(
            .eventually, "every-like-notified", "each confirmed liker of a post nobody deleted has a POST_LIKE in its author's inbox, once idle",
            operations: ["like", "double-tap"])
        static let replyNotifiedOnce = CheckDeclaration(
            .always, "reply-notified-once",
            "at most one POST_REPLY per reply (inbox, and push per token), to the parent's author, no more replies notified than sent",
            operations: ["reply"])
        static let everyReplyNotified = CheckDeclaration(
            .eventually, "every-reply-notified", "each confirmed reply has a POST_REPLY in its parent author's inbox, once idle",
            operations: ["reply"])
        static let noOrphanReply = CheckDeclaration(
            .eventually, "no-orphan-reply", "once idle, no reply remains whose parent post was deleted or is missing",
            operations: ["reply", "delete"])
        static let deletedPostStaysDeleted = CheckDeclaration(
            .always, "deleted-post-stays-deleted", "a post whose delete was confirmed never exists again (no counter resurrects it)",
            operations: ["like", "unlike", "reply", "delete"])
        static let authorDeletesOwnPost = CheckDeclaration(
            .always, "author-deletes-own-post", "a refused delete by the author does not leave their own post standing",
            operations: ["delete"])
        static let replyAfterDelete = CheckDeclaration(
            .sometimes, "reply-after-delete", "a reply was sent to a post after its author had deleted it",
            requires: [.atLeast(Parameter.postDeletes, 1), .atLeast(Parameter.replyPercent, 1)])
        static let reLike = CheckDeclaration(
            .sometimes, "re-like", "a user liked a post again after unliking it", requires: [.atMost(Parameter.replyPercent, 99)])
        static let doubleTapLike = CheckDeclaration(
            .sometimes, "double-tap-like", "a like was sent twice", requires: [.atLeast(Parameter.doubleTapPercent, 1), .atMost(Parameter.replyPercent, 99)])
        static let staleUnlike = CheckDeclaration(
            .sometimes, "stale-unlike", "an unlike came from a user who did not like the post", requires: [.atLeast(Parameter.staleUnlikePercent, 1), .atMost(Parameter.replyPercent, 99)])
    }
}
