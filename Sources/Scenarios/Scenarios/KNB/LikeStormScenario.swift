import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// KNB feed: users like, unlike (sometimes from a stale UI) and reply to a few posts, with double taps.
public struct LikeStormScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .likeStorm }
    /// The name `rehearse` takes.
    public let name = "like-storm"
    /// One line for `rehearse list`.
    public let summary = "likes, unlikes (stale UI) and replies on KNB posts, with double taps"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.posts,
        Parameter.actionsPerUser,
        Parameter.durationSeconds,
        Parameter.doubleTapPercent,
        Parameter.staleUnlikePercent,
        Parameter.replyPercent,
        Parameter.duplicatePercent,
        Parameter.reorderPercent,
        Parameter.postDeletes,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["like", "unlike", "reply", "delete"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([
        KNBVariant.likeArrayUnionIncrement, .unlikeNonLikerDecrements, .replyCountTriggerIncrement, .likeGuardReentrant, .replyCountReadThenWrite,
        .likeNotifyPerEvent, .replyCascadeQueryOnly,
    ])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.likeCountMatchesLikes,
        Check.likeCountNotNegative,
        Check.replyCountMatchesReplies,
        Check.likeNotifiedOncePerLiker,
        Check.everyLikeNotified,
        Check.replyNotifiedOnce,
        Check.everyReplyNotified,
        Check.noOrphanReply,
        Check.deletedPostStaysDeleted,
        Check.authorDeletesOwnPost,
        Check.replyAfterDelete,
        Check.reLike,
        Check.doubleTapLike,
        Check.staleUnlike,
    ]

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = KNBScenarioSupport.makeApp(context, duplicatePercent: p[Parameter.duplicatePercent], reorderPercent: p[Parameter.reorderPercent])
        let (author, authorRegistered) = await KNBScenarioSupport.account(app, email: "author@knb.org", name: "Author")
        var postIds: [String] = []
        // An author whose sign-in never got through posts nothing (and no post would be notified).
        for index in 0..<p[Parameter.posts] where authorRegistered {
            if let path = try? await KNBScenarioSupport.persistently({ try await author.createPost("Post \(index)") }) { postIds.append(path.id) }
        }
        if postIds.count < p[Parameter.posts] { context.note(author.email, "posted \(postIds.count) of \(p[Parameter.posts]) posts") }
        var signedUp: [(index: Int, client: KNBClient)] = []  // users whose sign-in got through, with their index
        for index in 0..<p[Parameter.users] {
            let (client, registered) = await KNBScenarioSupport.account(app, email: "u\(index)@knb.org", name: "User \(index)")
            if registered { signedUp.append((index, client)) } else { context.note(client.email, "sign-up failed: stays off the feed") }
        }
        let users = signedUp, posts = postIds
        let log = FeedLog()
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(500), check: { Self.checkState(app, log: log, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (index, user) in users {
                    group.addTask { await Self.userLoop(user, index: index, posts: posts, origin: origin, log: log, context: context) }
                }
                if p[Parameter.postDeletes] > 0 {
                    group.addTask { await Self.authorDeletes(author, posts: Array(posts.prefix(p[Parameter.postDeletes])), firestore: app.backend.firestore, origin: origin, log: log, context: context) }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        for lost in app.backend.functions.lostEvents { context.note("backend", "lost trigger event: \(lost)") }
        let firestore = app.backend.firestore
        for post in firestore.query("social_posts") where post["parentPostId"] == .null {
            let replies = firestore.query("social_posts") { $0["parentPostId"] == .string(post.id) }.count
            let count = post["replyCount"]?.intValue ?? -1
            context.eventually(Check.replyCountMatchesReplies, count == Int64(replies), "post \(post.id) replyCount \(count) but \(replies) replies")
        }
        let confirmed = Set(log.deletesConfirmed)
        for reply in firestore.query("social_posts") where reply["parentPostId"] != .null {
            let parent = reply["parentPostId"]?.stringValue ?? "?"
            // Deleted: the author was told so, or the post is gone (a time-out that committed).
            // A delete the author was told failed, with the post standing, leaves its replies be.
            let gone = confirmed.contains(parent) || firestore.liveFields(DocumentPath("social_posts", parent)) == nil
            context.eventually(Check.noOrphanReply, !gone, "reply \(reply.id) by \(reply["authorEmail"]?.stringValue ?? "?") remains, but its post \(parent) was deleted")
        }
        Self.checkDeleted(app, log: log, context)
        Self.checkNotifications(app, author: author.email, log: log, context)
        try context.throwIfStopped()
    }

    static func userLoop(_ user: KNBClient, index: Int, posts: [String], origin: UInt64, log: FeedLog, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("likes/user-\(index)")
        var liked: Set<String> = []  // what this user's UI believes
        var unliked: Set<String> = []  // posts this user unliked (a later like is a re-like)
        let arrivals = KNBScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], burstPercent: 0, random: &random, origin: origin)
        guard !posts.isEmpty else { return }  // set-up posted nothing: no feed to act on
        for arrival in arrivals {
            await KNBScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let post = posts[random.below(posts.count)]
            let roll = random.below(100)
            if roll < p[Parameter.replyPercent] {
                context.sometimes(Check.replyAfterDelete, log.deletesConfirmed.contains(post))
                context.note(user.email, "reply \(post)")
                let reply = try? await ScenarioSupport.retrying { () async throws -> DocumentPath in
                    log.replySent()
                    return try await user.reply(to: post, "Reply from \(user.name)")
                }
                if let reply { log.replyConfirmed(reply: reply.id, post: post) }
                context.recordLatency("reply", user: user.email, intendedStartNanoseconds: arrival)
            } else if liked.contains(post) || random.below(100) < p[Parameter.staleUnlikePercent] {
                context.sometimes(Check.staleUnlike, !liked.contains(post))
                context.note(user.email, "unlike \(post)")
                _ = try? await ScenarioSupport.retrying { try await user.unlike(post) }
                liked.remove(post)
                unliked.insert(post)
                context.recordLatency("unlike", user: user.email, intendedStartNanoseconds: arrival)
            } else {
                let doubleTap = random.below(100) < p[Parameter.doubleTapPercent]
                context.sometimes(Check.doubleTapLike, doubleTap)
                context.sometimes(Check.reLike, unliked.contains(post))
                context.note(user.email, doubleTap ? "double-tap like \(post)" : "like \(post)")
                log.likeSent(post: post, user: user.email)
                let confirmed: Bool
                if doubleTap {
                    async let first: Void? = try? ScenarioSupport.retrying { try await user.like(post) }
                    async let second: Void? = try? ScenarioSupport.retrying { try await user.like(post) }
                    let (one, two): (Void?, Void?) = await (first, second)
                    confirmed = one != nil || two != nil
                } else {
                    confirmed = (try? await ScenarioSupport.retrying { try await user.like(post) }) != nil
                }
                if confirmed { log.likeConfirmed(post: post, user: user.email) }
                liked.insert(post)
                context.recordLatency("like", user: user.email, intendedStartNanoseconds: arrival)
            }
        }
    }

    /// The author deletes each of `posts` at a seeded instant of the storm, while the users
    /// keep liking and replying to it (their UI does not know it is gone).
    static func authorDeletes(_ author: KNBClient, posts: [String], firestore: Firestore, origin: UInt64, log: FeedLog, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("likes/author")
        let arrivals = KNBScenarioSupport.arrivals(count: posts.count, durationSeconds: p[Parameter.durationSeconds], burstPercent: 0, random: &random, origin: origin)
        for (post, arrival) in zip(posts, arrivals) {
            await KNBScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            context.note(author.email, "delete \(post)")
            do {
                try await ScenarioSupport.retrying { () async throws -> Void in
                    log.deleteSent(post: post)
                    try await author.deletePost(post)
                }
                log.deleteConfirmed(post: post)
                context.always(Check.authorDeletesOwnPost, true, "")
            } catch KNBError.backend(.permissionDenied(let operation, let path)) {
                // A retry after a time-out that committed finds no post to delete, and the rules
                // (which read the post's author) refuse it: the post is gone, as asked.
                let standing = firestore.liveFields(DocumentPath("social_posts", post)) != nil
                context.always(Check.authorDeletesOwnPost, !standing, "\(author.email) could not delete their own post \(post): PERMISSION_DENIED (\(operation) \(path))")
            } catch {
                context.note(author.email, "delete failed: \(error)")
            }
            context.recordLatency("delete", user: author.email, intendedStartNanoseconds: arrival)
        }
    }

    /// Deleted posts stay deleted: nothing recreates a post whose delete the author was told of.
    static func checkDeleted(_ app: KNBApp, log: FeedLog, _ context: ScenarioContext) {
        for post in log.deletesConfirmed {
            let fields = app.backend.firestore.liveFields(DocumentPath("social_posts", post))
            context.always(Check.deletedPostStaysDeleted, fields == nil,
                           "post \(post) was deleted, but exists again with \(fields.map { $0.keys.sorted().joined(separator: ", ") } ?? "")")
        }
    }

    static func checkState(_ app: KNBApp, log: FeedLog, _ context: ScenarioContext) {
        checkDeleted(app, log: log, context)
        for post in app.backend.firestore.query("social_posts") {
            let likes = post["likes"]?.arrayValue?.count ?? 0
            let count = post["likeCount"]?.intValue ?? 0
            context.always(Check.likeCountMatchesLikes, count == Int64(likes), "post \(post.id) likeCount \(count) but \(likes) likes")
            context.always(Check.likeCountNotNegative, count >= 0, "post \(post.id) likeCount \(count)")
        }
    }
}
