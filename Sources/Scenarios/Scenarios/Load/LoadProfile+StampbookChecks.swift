import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

// stamp-collect's checks for its load profile, judged once the load settled on the documents as
// a function reads them (from the server in real mode): the scenario's own checks, by name.
extension LoadProfile {
    /// The checks stamp-collect's profile judges.
    static let stampCollectChecks = [
        StampCollectScenario.Check.collectorsConsistent, StampCollectScenario.Check.collectorsMatchRecords,
        StampCollectScenario.Check.likeCountNotNegative, StampCollectScenario.Check.likeCountMatchesLikes,
    ]

    /// Each stamp's `totalCollectors` equal to its `collectorUserIds` (no one twice) and those to the
    /// users holding a collected record; each post's `likeCount` not negative and equal to its
    /// likes, over `users`.
    static func settleStamps(_ app: StampbookApp, users: [String], _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let firestore = app.backend.firestore
        var records: [String: [String]] = [:]
        for user in users {
            for record in await firestore.fetch("users/\(user)/collected_stamps") { records[record.id, default: []].append(user) }
        }
        for statistics in await firestore.fetch("stamp_statistics") {
            let collectors = (statistics["collectorUserIds"]?.arrayValue ?? []).compactMap(\.stringValue)
            let total = statistics["totalCollectors"]?.intValue ?? 0
            checks.always(StampCollectScenario.Check.collectorsConsistent,
                          failure: total == Int64(collectors.count) && Set(collectors).count == collectors.count ? nil
                              : "\(statistics.id) totalCollectors \(total) but collectorUserIds \(collectors)")
            let holders = records[statistics.id, default: []].sorted()
            checks.always(StampCollectScenario.Check.collectorsMatchRecords, failure: collectors.sorted() == holders ? nil
                : "\(statistics.id) collectors \(collectors.sorted()) but records \(holders)")
        }
        for post in await firestore.fetch("feed_posts") {
            let likes = await firestore.fetch("feed_posts/\(post.id)/likes").count
            let count = post["likeCount"]?.intValue ?? 0
            checks.always(StampCollectScenario.Check.likeCountNotNegative, failure: count >= 0 ? nil : "post \(post.id) likeCount \(count)")
            checks.always(StampCollectScenario.Check.likeCountMatchesLikes, failure: count == Int64(likes) ? nil
                : "post \(post.id) likeCount \(count) but \(likes) like document(s)")
        }
    }
}

// stamp-social's checks for its load profile, judged the same way.
extension LoadProfile {
    /// The checks stamp-social's profile judges.
    static let stampSocialChecks = [
        StampSocialScenario.Check.noZombiePost, StampSocialScenario.Check.countersNotNegative, StampSocialScenario.Check.postCopyConsistent,
        StampSocialScenario.Check.noOrphans, StampSocialScenario.Check.commentCountMatches, StampSocialScenario.Check.likeCountMatches,
        StampSocialScenario.Check.followCountsMatch,
    ]

    /// Every post with an author and counters not negative; each user's post copies equal to
    /// their feed posts; no comment or like under a post that is gone (any of `created`); each
    /// post's counters equal to its comments and likes; each user's follow counters equal to the
    /// following records, over `users`.
    static func settleSocial(_ app: StampbookApp, users: [String], created: StampSocialScenario.PostBoard, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let firestore = app.backend.firestore
        let posts = await firestore.fetch("feed_posts")
        for post in posts {
            checks.always(StampSocialScenario.Check.noZombiePost, failure: post["userId"]?.stringValue != nil ? nil : "feed post \(post.id) has no author")
        }
        for user in users {
            let feedIds = posts.filter { $0["userId"]?.stringValue == user && $0["isCollection"] != .bool(true) }.map(\.id).sorted()
            let copyIds = await firestore.fetch("users/\(user)/posts").map(\.id).sorted()
            checks.always(StampSocialScenario.Check.postCopyConsistent, failure: feedIds == copyIds ? nil : "\(user) feed posts \(feedIds) but users/\(user)/posts \(copyIds)")
        }
        for postId in Set(posts.map(\.id)).union(created.all).sorted() {
            await settlePost(postId, post: posts.first { $0.id == postId }, firestore: firestore, checks)
        }
        await settleFollows(firestore, users: users, checks)
    }

    private static func settlePost(_ postId: String, post: DocumentSnapshot?, firestore: Firestore, _ checks: LoadCheckLog) async {
        let comments = await firestore.fetch("feed_posts/\(postId)/comments").count
        let likes = await firestore.fetch("feed_posts/\(postId)/likes").count
        guard let post else {
            checks.always(StampSocialScenario.Check.noOrphans, failure: comments == 0 && likes == 0 ? nil
                : "deleted post \(postId) still has \(comments) comment(s) and \(likes) like(s)")
            return
        }
        let commentCount = post["commentCount"]?.intValue ?? 0, likeCount = post["likeCount"]?.intValue ?? 0
        checks.always(StampSocialScenario.Check.countersNotNegative, failure: commentCount >= 0 && likeCount >= 0 ? nil
            : "post \(postId) commentCount \(commentCount) likeCount \(likeCount)")
        checks.always(StampSocialScenario.Check.commentCountMatches, failure: commentCount == Int64(comments) ? nil
            : "post \(postId) commentCount \(commentCount) but \(comments) comment document(s)")
        checks.always(StampSocialScenario.Check.likeCountMatches, failure: likeCount == Int64(likes) ? nil
            : "post \(postId) likeCount \(likeCount) but \(likes) like document(s)")
    }

    private static func settleFollows(_ firestore: Firestore, users: [String], _ checks: LoadCheckLog) async {
        var followers: [String: Int] = [:], following: [String: Int] = [:]
        for user in users {
            let records = await firestore.fetch("users/\(user)/following")
            following[user] = records.count
            for record in records { followers[record.id, default: 0] += 1 }
        }
        let documents = await firestore.fetch("users")
        for user in users {
            let fields = documents.first { $0.id == user }?.fields ?? [:]
            let followerCount = fields["followerCount"]?.intValue ?? 0, followingCount = fields["followingCount"]?.intValue ?? 0
            checks.always(StampSocialScenario.Check.countersNotNegative, failure: followerCount >= 0 && followingCount >= 0 ? nil
                : "user \(user) followerCount \(followerCount) followingCount \(followingCount)")
            let expected = (Int64(followers[user] ?? 0), Int64(following[user] ?? 0))
            checks.always(StampSocialScenario.Check.followCountsMatch, failure: (followerCount, followingCount) == expected ? nil
                : "\(user) followerCount \(followerCount) followingCount \(followingCount) but \(expected.0) follower and \(expected.1) following record(s)")
        }
    }
}
