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
        static let doubleTapLike = CheckDeclaration(
            .sometimes, "double-tap-like", "a like was sent twice", requires: [.atLeast(Parameter.doubleTapPercent, 1), .atMost(Parameter.replyPercent, 99)])
        static let staleUnlike = CheckDeclaration(
            .sometimes, "stale-unlike", "an unlike came from a user who did not like the post", requires: [.atLeast(Parameter.staleUnlikePercent, 1), .atMost(Parameter.replyPercent, 99)])
    }
}
