import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// Stampbook's social side: users create posts (each with its `users/{uid}/posts` copy), comment
/// and delete comments, delete their own posts while others comment on and like them, and follow
/// and unfollow one another, with double taps and retries on transient errors.
public struct StampSocialScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .stampSocial }
    /// The name `rehearse` takes.
    public let name = "stamp-social"
    /// One line for `rehearse list`.
    public let summary = "Stampbook posts with their Only-You copies, deletes racing comments and likes, double-tapped follows"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.users,
        Parameter.actionsPerUser,
        Parameter.durationSeconds,
        Parameter.postPercent,
        Parameter.commentPercent,
        Parameter.deletePostPercent,
        Parameter.followPercent,
        Parameter.doubleTapPercent,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["post", "comment", "uncomment", "delete-post", "follow", "unfollow", "like"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([
        StampbookVariant.postDeleteFeedOnly, .commentCountIncrement, .followCountIncrement,
    ])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.noZombiePost,
        Check.countersNotNegative,
        Check.postCopyConsistent,
        Check.noOrphans,
        Check.commentCountMatches,
        Check.likeCountMatches,
        Check.followCountsMatch,
        Check.commentOnDeletedRefused,
        Check.doubleFollowRefused,
    ]

    /// The posts created so far, in creation order (what every user's feed shows them to pick from).
    final class PostBoard: Sendable {
        private let ids = Mutex<[String]>([])
        func add(_ id: String) { ids.withLock { $0.append(id) } }
        /// Every post created so far, in creation order.
        var all: [String] { ids.withLock { $0 } }
        func pick(_ random: inout SimRandom) -> String? {
            let created = all
            return created.isEmpty ? nil : created[random.below(created.count)]
        }
    }

    /// Runs one seed: the users' actions under a monitor, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = StampbookApp(backend: context.backend(), variant: ScenarioSupport.variant(context, StampbookVariant.self))
        let uids = (0..<p[Parameter.users]).map { "u\($0)" }
        let board = PostBoard()
        let origin = Simulation.nowNanoseconds
        try await context.monitored(every: .milliseconds(250), check: { Self.checkState(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                for (index, uid) in uids.enumerated() {
                    group.addTask {
                        await Simulation.named("stamp-user-\(index)") {
                            await Self.userLoop(app, uid: uid, index: index, uids: uids, board: board, origin: origin, context: context)
                        }
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        guard !context.isStopped else { try context.throwIfStopped(); return }
        Self.checkEnd(app, uids: uids, board: board, context: context)
        try context.throwIfStopped()
    }

    /// One user's session: at each arrival a post, a comment, a delete of an own post, a follow
    /// toggle or a like toggle.
    static func userLoop(
        _ app: StampbookApp, uid: String, index: Int, uids: [String], board: PostBoard, origin: UInt64, context: ScenarioContext
    ) async {
        let p = context.parameters
        let client = app.client(uid: uid)
        var random = Simulation.random("stamp-social/user-\(index)")
        var ownPosts: [String] = []
        var ownComments: [(postId: String, commentId: String)] = []
        var following: Set<String> = []  // the UI's belief
        var liked: Set<String> = []
        var created = 0
        let others = uids.filter { $0 != uid }
        let arrivals = ScenarioSupport.arrivals(count: p[Parameter.actionsPerUser], durationSeconds: p[Parameter.durationSeconds], random: &random, origin: origin)
        for arrival in arrivals {
            await ScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let doubleTap = random.below(100) < p[Parameter.doubleTapPercent]
            var roll = random.below(100)
            if roll < p[Parameter.postPercent] {
                await post(client, uid: uid, created: &created, ownPosts: &ownPosts, board: board, arrival: arrival, context: context)
                continue
            }
            roll -= p[Parameter.postPercent]
            if roll < p[Parameter.commentPercent] {
                // One comment in four deletes one of the user's own comments, when there is one.
                if !ownComments.isEmpty, random.below(4) == 0 {
                    await uncomment(client, uid: uid, doubleTap: doubleTap, ownComments: &ownComments, random: &random, arrival: arrival, context: context)
                } else {
                    await comment(client, uid: uid, doubleTap: doubleTap, ownComments: &ownComments, board: board, random: &random, arrival: arrival, context: context)
                }
                continue
            }
            roll -= p[Parameter.commentPercent]
            if roll < p[Parameter.deletePostPercent] {
                await deletePost(client, uid: uid, ownPosts: &ownPosts, random: &random, arrival: arrival, context: context)
                continue
            }
            roll -= p[Parameter.deletePostPercent]
            if roll < p[Parameter.followPercent] {
                await toggleFollow(client, uid: uid, others: others, doubleTap: doubleTap, following: &following, random: &random, arrival: arrival, context: context)
                continue
            }
            await toggleLike(client, uid: uid, doubleTap: doubleTap, liked: &liked, board: board, random: &random, arrival: arrival, context: context)
        }
    }

    /// Creates the user's next post; one that landed goes on the board.
    private static func post(
        _ client: StampbookClient, uid: String, created: inout Int, ownPosts: inout [String], board: PostBoard, arrival: UInt64, context: ScenarioContext
    ) async {
        created += 1
        let postId = "\(uid)-p\(created)"
        let number = created
        context.note(uid, "post \(postId)")
        if (try? await ScenarioSupport.retrying({ try await client.createPost(postId: postId, stampId: "stamp0", caption: "Post \(number)") })) != nil {
            ownPosts.append(postId)
            board.add(postId)
        }
        context.recordLatency("post", user: uid, intendedStartNanoseconds: arrival)
    }

    /// Deletes one of the user's own comments.
    private static func uncomment(
        _ client: StampbookClient, uid: String, doubleTap: Bool, ownComments: inout [(postId: String, commentId: String)],
        random: inout SimRandom, arrival: UInt64, context: ScenarioContext
    ) async {
        let (postId, commentId) = ownComments.remove(at: random.below(ownComments.count))
        context.note(uid, "uncomment \(commentId) on \(postId)\(doubleTap ? " ×2" : "")")
        await Self.tap(doubleTap) { _ = try? await ScenarioSupport.retrying { try await client.deleteComment(postId: postId, commentId: commentId) } }
        context.recordLatency("uncomment", user: uid, intendedStartNanoseconds: arrival)
    }

    /// Comments on a post from the board; a refusal because the post is gone reaches its goal.
    private static func comment(
        _ client: StampbookClient, uid: String, doubleTap: Bool, ownComments: inout [(postId: String, commentId: String)], board: PostBoard,
        random: inout SimRandom, arrival: UInt64, context: ScenarioContext
    ) async {
        guard let postId = board.pick(&random) else { return }
        let commentId = "\(uid)-c\(arrival)"
        context.note(uid, "comment \(commentId) on \(postId)\(doubleTap ? " ×2" : "")")
        let landed = Mutex(false)
        await Self.tap(doubleTap) {
            do {
                try await ScenarioSupport.retrying { try await client.addComment(postId: postId, commentId: commentId, text: "Nice!") }
                landed.withLock { $0 = true }
            } catch {
                if case StampbookError.postNotFound = error { context.sometimes(Check.commentOnDeletedRefused, true) }
            }
        }
        if landed.withLock({ $0 }) { ownComments.append((postId, commentId)) }
        context.recordLatency("comment", user: uid, intendedStartNanoseconds: arrival)
    }

    /// Deletes one of the user's own posts, if they have one.
    private static func deletePost(
        _ client: StampbookClient, uid: String, ownPosts: inout [String], random: inout SimRandom, arrival: UInt64, context: ScenarioContext
    ) async {
        guard !ownPosts.isEmpty else { return }
        let postId = ownPosts.remove(at: random.below(ownPosts.count))
        context.note(uid, "delete-post \(postId)")
        _ = try? await ScenarioSupport.retrying { try await client.deletePost(postId: postId) }
        context.recordLatency("delete-post", user: uid, intendedStartNanoseconds: arrival)
    }

    /// Follows another user, or unfollows one the UI shows as followed; a refused double tap
    /// reaches its goal.
    private static func toggleFollow(
        _ client: StampbookClient, uid: String, others: [String], doubleTap: Bool, following: inout Set<String>,
        random: inout SimRandom, arrival: UInt64, context: ScenarioContext
    ) async {
        let target = others[random.below(others.count)]
        let follow = !following.contains(target)
        context.note(uid, "\(follow ? "follow" : "unfollow") \(target)\(doubleTap ? " ×2" : "")")
        await Self.tap(doubleTap) {
            do { try await ScenarioSupport.retrying { try await client.setFollowing(target, following: follow) } } catch {
                switch error {
                case StampbookError.alreadyFollowing, StampbookError.notFollowing: context.sometimes(Check.doubleFollowRefused, doubleTap)
                default: break
                }
            }
        }
        if follow { following.insert(target) } else { following.remove(target) }
        context.recordLatency(follow ? "follow" : "unfollow", user: uid, intendedStartNanoseconds: arrival)
    }

    /// Likes a post from the board, or unlikes one the UI shows as liked.
    private static func toggleLike(
        _ client: StampbookClient, uid: String, doubleTap: Bool, liked: inout Set<String>, board: PostBoard,
        random: inout SimRandom, arrival: UInt64, context: ScenarioContext
    ) async {
        guard let postId = board.pick(&random) else { return }
        let like = !liked.contains(postId)
        context.note(uid, "\(like ? "like" : "unlike") \(postId)\(doubleTap ? " ×2" : "")")
        await Self.tap(doubleTap) { _ = try? await ScenarioSupport.retrying { try await client.setLike(postId: postId, liked: like) } }
        if like { liked.insert(postId) } else { liked.remove(postId) }
        context.recordLatency("like", user: uid, intendedStartNanoseconds: arrival)
    }

    /// Runs `action` once, or twice at once for a double tap.
    static func tap(_ twice: Bool, _ action: @escaping @Sendable () async -> Void) async {
        guard twice else { await action(); return }
        async let first: Void = action()
        async let second: Void = action()
        _ = await (first, second)
    }

    /// Always-checks on single documents, from the committed documents (not the app's functions).
    static func checkState(_ app: StampbookApp, _ context: ScenarioContext) {
        let firestore = app.backend.firestore
        for post in firestore.query("feed_posts") {
            context.always(Check.noZombiePost, post["userId"]?.stringValue != nil, "feed post \(post.id) has no author: \(post.fields?.canonicalDescription ?? "no fields")")
            for field in ["commentCount", "likeCount"] {
                let value = post[field]?.intValue ?? 0
                context.always(Check.countersNotNegative, value >= 0, "post \(post.id) \(field) \(value)")
            }
        }
        for user in firestore.query("users") {
            for field in ["followerCount", "followingCount"] {
                let value = user[field]?.intValue ?? 0
                context.always(Check.countersNotNegative, value >= 0, "user \(user.id) \(field) \(value)")
            }
        }
    }

    /// End-state checks, once idle: every count recomputed by counting documents.
    static func checkEnd(_ app: StampbookApp, uids: [String], board: PostBoard, context: ScenarioContext) {
        let firestore = app.backend.firestore
        let posts = firestore.query("feed_posts")
        let postIds = Set(posts.map(\.id))
        for uid in uids {
            let feedIds = posts.filter { $0["userId"]?.stringValue == uid && $0["isCollection"] != .bool(true) }.map(\.id).sorted()
            let copyIds = firestore.query("users/\(uid)/posts").map(\.id).sorted()
            context.eventually(Check.postCopyConsistent, feedIds == copyIds, "\(uid) feed posts \(feedIds) but users/\(uid)/posts \(copyIds)")
        }
        // Every post that may hold comments or likes: those that exist, and every one the users
        // created (comments and likes only target the board), deleted or not.
        let candidates = postIds.union(board.all)
        for postId in candidates.sorted() {
            let comments = firestore.query("feed_posts/\(postId)/comments").count
            let likes = firestore.query("feed_posts/\(postId)/likes").count
            guard let post = posts.first(where: { $0.id == postId }) else {
                context.eventually(Check.noOrphans, comments == 0 && likes == 0, "deleted post \(postId) still has \(comments) comment(s) and \(likes) like(s)")
                continue
            }
            let commentCount = post["commentCount"]?.intValue ?? 0
            context.eventually(Check.commentCountMatches, commentCount == Int64(comments), "post \(postId) commentCount \(commentCount) but \(comments) comment document(s)")
            let likeCount = post["likeCount"]?.intValue ?? 0
            context.eventually(Check.likeCountMatches, likeCount == Int64(likes), "post \(postId) likeCount \(likeCount) but \(likes) like document(s)")
        }
        var followers: [String: Int] = [:]
        var followingCounts: [String: Int] = [:]
        for uid in uids {
            let records = firestore.query("users/\(uid)/following")
            followingCounts[uid] = records.count
            for record in records { followers[record.id, default: 0] += 1 }
        }
        for uid in uids {
            let user = firestore.liveFields(DocumentPath("users", uid)) ?? [:]
            let (followerCount, followingCount) = (user["followerCount"]?.intValue ?? 0, user["followingCount"]?.intValue ?? 0)
            context.eventually(Check.followCountsMatch,
                               followerCount == Int64(followers[uid] ?? 0) && followingCount == Int64(followingCounts[uid] ?? 0),
                               "\(uid) followerCount \(followerCount) followingCount \(followingCount) but \(followers[uid] ?? 0) follower and \(followingCounts[uid] ?? 0) following record(s)")
        }
    }
}
