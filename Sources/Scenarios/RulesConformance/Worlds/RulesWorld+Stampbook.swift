import Domain
import SimulatedFirebase

extension RulesWorld {
    /// Stampbook: users keyed by uid (no emails needed), the public catalogue, statistics, each
    /// user's records, feed posts with likes (keyed by the liker's uid) and comments. Post ids are
    /// among the path ids, so `isPostAuthor`'s lookup of `feed_posts/{postId}` hits.
    public static var stampbook: RulesWorld {
        let uids = ["ana", "ben", "cy"]
        let people: [Value] = uids.map { .string($0) } + [.string("stranger")]
        let postIds = ["ana_s1", "ben_s2", "p1"]
        let count: [Value] = [.int(0), .int(1), .double(1), .int(2)]
        let at = { (seconds: Int64) in Value.timestamp(Timestamp(unixSeconds: seconds)) }
        return RulesWorld(
            app: "stampbook", rulesText: StampbookApp.rulesText, rules: StampbookApp.securityRules,
            users: uids.map { AuthContext(uid: $0) },
            ids: uids + postIds,
            collections: [
                Collection("stamps", ids: ["s1", "s2"], fields: [Field("id", [.string("s1"), .string("s2")]), Field("name", [.string("Golden Gate")])]),
                Collection("collections", ids: ["sf"], fields: [Field("name", [.string("San Francisco")])]),
                Collection("stamp_statistics", ids: ["s1", "s2"], fields: [
                    Field("totalCollectors", count), Field("collectorUserIds", [.array([]), .array(["ana"]), .array(["ana", "ben"])]),
                    Field("lastUpdated", [at(1_767_225_600)]),
                ]),
                Collection("users", ids: uids + ["dee"], fields: [
                    Field("followerCount", count), Field("followingCount", count), Field("displayName", [.string("Ana"), .string("Ben")]),
                ]),
                Collection("users/{uid}/collected_stamps", ids: ["s1", "s2"], fields: [
                    Field("collectedAt", [at(1_767_225_600)]), Field("photoUrls", [.array([]), .array(["b1/0.jpg"])]),
                ]),
                Collection("users/{uid}/following", ids: uids, fields: [Field("since", [at(1_767_225_600), at(1_767_229_200)])]),
                Collection("users/{uid}/posts", ids: postIds, fields: [Field("postId", postIds.map { .string($0) }), Field("timestamp", [at(1_767_225_600)])]),
                Collection("feed_posts", ids: postIds, fields: [
                    Field("userId", people), Field("stampId", [.string("s1"), .string("s2")]), Field("caption", [.string(""), .string("Foggy!")]),
                    Field("likeCount", count), Field("commentCount", count), Field("isCollection", [.bool(true), .bool(false)]),
                ]),
                Collection("feed_posts/{postId}/likes", ids: uids + ["dee"], fields: [Field("userId", people), Field("createdAt", [at(1_767_225_600)])]),
                Collection("feed_posts/{postId}/comments", ids: ["c1", "c2"], fields: [
                    Field("userId", people), Field("text", [.string("Nice"), .string("Wow")]), Field("createdAt", [at(1_767_229_200)]),
                ]),
            ])
    }
}
