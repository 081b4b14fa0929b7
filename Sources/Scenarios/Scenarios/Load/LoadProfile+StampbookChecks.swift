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
