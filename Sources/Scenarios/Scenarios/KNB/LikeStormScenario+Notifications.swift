import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

extension LikeStormScenario {
    /// The POST_LIKE and POST_REPLY checks, once the backend is idle. The oracle is the users' own
    /// record (`FeedLog`: who sent and who was told of a like, which replies were confirmed), not
    /// the functions' de-duplication keys: the author's inbox and the outbox's pushes are counted
    /// per liker and per reply, whatever ids the functions gave them.
    static func checkNotifications(_ app: KNBApp, author: String, log: FeedLog, _ context: ScenarioContext) {
        guard !context.isStopped else { return }
        let firestore = app.backend.firestore
        var tally = NotificationTally(author: author, attempted: log.likesAttempted, replies: log.repliesConfirmed)
        tally.countInbox(firestore.query("users/\(author)/notifications"))
        tally.countPushes(app.backend.outbox.records)
        tally.countUnconfirmedReplies(repliesAttempted: log.repliesAttempted)
        context.always(Check.likeNotifiedOncePerLiker, observations: tally.likeObservations, firstFailure: tally.likeFailure)
        context.always(Check.replyNotifiedOnce, observations: tally.replyObservations, firstFailure: tally.replyFailure)
        checkEveryoneNotified(tally, log: log, firestore: firestore, context)
    }

    /// every-like-notified and every-reply-notified, on posts nobody deleted: a like of a post
    /// being deleted is not owed a notification (and a device guard may report success for a tap
    /// it dropped on one). A post whose delete the author was told failed, and which stands, was
    /// never deleted.
    private static func checkEveryoneNotified(_ tally: NotificationTally, log: FeedLog, firestore: Firestore, _ context: ScenarioContext) {
        let author = tally.author, replies = tally.replies
        let confirmedDeletes = Set(log.deletesConfirmed)
        let deleted = log.deletesSent.filter { confirmedDeletes.contains($0) || firestore.liveFields(DocumentPath("social_posts", $0)) == nil }
        for like in log.likesConfirmed where !deleted.contains(like.post) {
            context.eventually(Check.everyLikeNotified, tally.likeDocuments[like] != nil,
                               "\(like.user) was told their like of post \(like.post) succeeded, but \(author) has no POST_LIKE for it")
        }
        // A reply to a post being deleted may be removed before its trigger notifies: not owed.
        for reply in replies.keys.sorted() where !deleted.contains(replies[reply]!) {
            context.eventually(Check.everyReplyNotified, tally.replyDocuments[reply] != nil,
                               "reply \(reply) to post \(replies[reply]!) was confirmed, but \(author) has no POST_REPLY for it")
        }
    }

    /// The author's POST_LIKE and POST_REPLY notifications, in the inbox and as pushes, counted
    /// per liker and per reply, with the first failure of each check.
    struct NotificationTally {
        typealias Like = FeedLog.Like
        struct LikePush: Hashable { let like: Like, token: String }
        struct ReplyPush: Hashable { let reply: String, token: String }

        let author: String
        /// Every like that was sent.
        let attempted: Set<Like>
        /// Confirmed replies: id -> parent post.
        let replies: [String: String]
        var likeDocuments: [Like: Int] = [:], replyDocuments: [String: Int] = [:]
        var likeObservations = 0, replyObservations = 0
        var likeFailure: String?, replyFailure: String?
        var likePushes: Set<LikePush> = [], replyPushes: Set<ReplyPush> = []

        init(author: String, attempted: Set<Like>, replies: [String: String]) {
            self.author = author
            self.attempted = attempted
            self.replies = replies
        }

        /// The author's inbox: every POST_LIKE / POST_REPLY document, once per liker and reply,
        /// each for a like that was sent or the post the reply answered.
        mutating func countInbox(_ documents: [DocumentSnapshot]) {
            for document in documents {
                let data = document["data"]?.mapValue ?? [:]
                let post = data["postId"]?.stringValue ?? "?"
                switch document["type"]?.stringValue {
                case "POST_LIKE":
                    let like = Like(post: post, user: data["liker"]?.stringValue ?? "?")
                    likeDocuments[like, default: 0] += 1
                    likeObservations += 1
                    if likeFailure == nil, likeDocuments[like]! > 1 {
                        likeFailure = "\(author)'s inbox has \(likeDocuments[like]!) POST_LIKE for \(like.user) on post \(post)"
                    } else if likeFailure == nil, !attempted.contains(like) {
                        likeFailure = "\(author)'s inbox has a POST_LIKE for \(like.user) on post \(post), who never sent a like of it"
                    }
                case "POST_REPLY":
                    let reply = data["replyId"]?.stringValue ?? "?"
                    replyDocuments[reply, default: 0] += 1
                    replyObservations += 1
                    if replyFailure == nil, replyDocuments[reply]! > 1 {
                        replyFailure = "\(author)'s inbox has \(replyDocuments[reply]!) POST_REPLY for reply \(reply)"
                    } else if replyFailure == nil, let parent = replies[reply], parent != post {
                        replyFailure = "POST_REPLY for reply \(reply) names post \(post), but it replied to \(parent)"
                    }
                default:
                    continue
                }
            }
        }

        /// Pushes: one per liker (reply) and token, to the author, only for likes that were sent.
        mutating func countPushes(_ records: [OutboxRecord]) {
            for record in records where record.channel == .push {
                switch record.type {
                case "POST_LIKE":
                    let like = Like(post: record.payload["postId"] ?? "?", user: record.payload["liker"] ?? "?")
                    likeObservations += 1
                    guard likeFailure == nil else { continue }
                    if record.recipient != author {
                        likeFailure = "POST_LIKE for \(like.user) on post \(like.post) went to \(record.recipient), not the author \(author)"
                    } else if !attempted.contains(like) {
                        likeFailure = "POST_LIKE push for \(like.user) on post \(like.post), who never sent a like of it"
                    } else if !likePushes.insert(LikePush(like: like, token: record.token ?? "")).inserted {
                        likeFailure = "second POST_LIKE push for \(like.user) on post \(like.post) to \(author) [\(record.token ?? "")]"
                    }
                case "POST_REPLY":
                    let reply = record.payload["replyId"] ?? "?"
                    replyObservations += 1
                    guard replyFailure == nil else { continue }
                    if record.recipient != author {
                        replyFailure = "POST_REPLY for reply \(reply) went to \(record.recipient), not the parent's author \(author)"
                    } else if !replyPushes.insert(ReplyPush(reply: reply, token: record.token ?? "")).inserted {
                        replyFailure = "second POST_REPLY push for reply \(reply) to \(author) [\(record.token ?? "")]"
                    }
                default:
                    continue
                }
            }
        }

        /// Replies notified but never confirmed (a time-out that committed) cannot outnumber the
        /// replies sent without a confirmation.
        mutating func countUnconfirmedReplies(repliesAttempted: Int) {
            let unconfirmedNotified = replyDocuments.keys.filter { replies[$0] == nil }.count
            let unconfirmedSent = repliesAttempted - replies.count
            replyObservations += 1
            if replyFailure == nil, unconfirmedNotified > unconfirmedSent {
                replyFailure = "\(unconfirmedNotified) POST_REPLY for replies nobody was told of, but only \(unconfirmedSent) reply attempts went unconfirmed"
            }
        }
    }
}
