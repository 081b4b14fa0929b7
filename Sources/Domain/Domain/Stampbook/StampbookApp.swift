import SimulatedFirebase
import Synchronization

/// Stampbook's data rules on the simulated backend: collect a stamp once per user with consistent
/// statistics, feed posts, de-duplicated likes, comments with counts, follows.
///
/// Every operation is a client request through the caller's `FirestoreClient` (so rules and
/// network faults apply); counters change in the same transaction as the documents they count.
///
/// Layout: `stamps/{stampId}`, `stamp_statistics/{stampId}` {totalCollectors, collectorUserIds,
/// lastUpdated}, `users/{uid}/collected_stamps/{stampId}`, `feed_posts/{postId}` {userId, stampId,
/// caption, likeCount, commentCount, isCollection}, `feed_posts/{postId}/likes/{uid}`,
/// `feed_posts/{postId}/comments/{commentId}`, `users/{uid}` {followerCount, followingCount},
/// `users/{uid}/following/{targetUid}`, `users/{uid}/posts/{postId}` {postId, timestamp} (the
/// "Only You" copy of the user's own non-collection posts, docs/domain.md).
public final class StampbookApp: Sendable {
    /// The backend the app is deployed on.
    public let backend: Backend
    /// The design that runs.
    public let variant: StampbookVariant
    /// Characters a feed post's caption may have.
    public static let captionLengthMaximum = 500
    private let likeRequests = Mutex<[String: StampbookLikeRequests]>([:])
    /// Numbers each tap of the reentrant variants, so their transactions recognise their own
    /// re-run after an ambiguous commit (and only that: another tap is the planted race).
    private let tapSequence = Mutex<UInt64>(0)
    /// Numbers collect attempts with photos (`b1`, `b2`, …), standing in for a device's UUID.
    let photoBatches = Mutex<Int>(0)
    /// The devices' in-memory managers of the reentrant variants, keyed by user and post/stamp.
    private let deviceMemory: InstanceMemory

    /// Builds the app on `backend` and deploys Stampbook's security rules.
    public init(backend: Backend, variant: StampbookVariant = .careful) {
        self.backend = backend
        self.variant = variant
        self.deviceMemory = InstanceMemory(env: backend.env, label: "stampbook-devices")
        backend.setRules(Self.securityRules, source: Self.rulesText)
        backend.storage.setRules(Self.storageRules)
    }

    static func statistics(_ stampId: String) -> DocumentPath { DocumentPath("stamp_statistics", stampId) }
    static func collected(_ userId: String, _ stampId: String) -> DocumentPath { DocumentPath("users", userId).child("collected_stamps", stampId) }
    static func post(_ postId: String) -> DocumentPath { DocumentPath("feed_posts", postId) }
    static func like(_ postId: String, _ userId: String) -> DocumentPath { post(postId).child("likes", userId) }
    static func comment(_ postId: String, _ commentId: String) -> DocumentPath { post(postId).child("comments", commentId) }
    static func following(_ userId: String, _ targetId: String) -> DocumentPath { DocumentPath("users", userId).child("following", targetId) }
    static func postCopy(_ userId: String, _ postId: String) -> DocumentPath { DocumentPath("users", userId).child("posts", postId) }

    private func uid(_ client: FirestoreClient) throws(StampbookError) -> String {
        guard let uid = client.auth?.uid else { throw .unauthenticated }
        return uid
    }

    /// Seeds a stamp (admin, as the app's catalogue import does).
    public func addStamp(stampId: String, name: String) async throws(StampbookError) {
        do {
            try await backend.firestore.set(DocumentPath("stamps", stampId), ["id": .string(stampId), "name": .string(name)])
        } catch { throw .backend(error) }
    }

    // MARK: Collecting

    /// Collects `stampId` for the caller: the collected record, the statistics and an
    /// `isCollection` feed post (id `{uid}_{stampId}`) commit together, once.
    /// `photoURLs` (nil: a collect without photos, no field) go on the record and the post.
    func collectStamp(_ stampId: String, caption: String = "", photoURLs: [String]? = nil, as client: FirestoreClient) async throws(StampbookError) {
        let userId = try uid(client)
        let now = backend.env.clock.now
        var postFields: Fields = [
            "userId": .string(userId), "stampId": .string(stampId), "caption": .string(caption),
            "timestamp": .timestamp(now), "likeCount": 0, "commentCount": 0, "isCollection": true,
        ]
        var recordFields: Fields = ["collectedAt": .timestamp(now)]
        if let photoURLs {
            postFields["photoUrls"] = .array(photoURLs.map(Value.string))
            recordFields["photoUrls"] = .array(photoURLs.map(Value.string))
        }
        do {
            if variant == .collectGuardReentrant {
                try await collectGuardedOnDevice(stampId, userId: userId, at: now, postFields: postFields, as: client)
            } else if variant == .incrementCollectors {
                try await collectWithIncrements(stampId, userId: userId, at: now, postFields: postFields, as: client)
            } else {
                try await collectInTransaction(stampId, userId: userId, at: now, postFields: postFields, recordFields: recordFields, as: client)
            }
        } catch { throw StampbookError.wrap(error) }
    }

    /// The reentrant variant: a device-side guard, then a transaction idempotent only against its
    /// own re-run.
    private func collectGuardedOnDevice(
        _ stampId: String, userId: String, at now: Timestamp, postFields: Fields, as client: FirestoreClient
    ) async throws {
        // The local collected set is kept after a failure too (the optimistic UI shows
        // the stamp collected), so a retry is refused locally, never counted twice.
        guard await deviceMemory.claimAcrossAwait("collect/\(userId)/\(stampId)", at: now) else {
            throw StampbookError.alreadyCollected(userId: userId, stampId: stampId)
        }
        let tap = tapSequence.withLock { value -> UInt64 in value += 1; return value }
        try await client.runTransaction { transaction in
            let stamp = try await transaction.get(DocumentPath("stamps", stampId))
            guard stamp.exists else { throw StampbookError.stampNotFound(stampId: stampId) }
            // Idempotent against its own re-run only (the SDK re-runs a transaction whose
            // commit response was lost): another tap's record is not checked, the planted bug.
            if try await transaction.get(Self.collected(userId, stampId))["tap"] == .int(Int64(tap)) { return }
            _ = try await transaction.get(Self.statistics(stampId))
            transaction.set(Self.collected(userId, stampId), ["collectedAt": .timestamp(now), "tap": .int(Int64(tap))])
            transaction.merge(Self.statistics(stampId), [
                "totalCollectors": .increment(1), "collectorUserIds": .arrayUnion([.string(userId)]),
                "lastUpdated": .serverTimestamp,
            ])
            transaction.set(Self.post("\(userId)_\(stampId)"), postFields)
        }
    }

    /// The increment variant: three separate writes, the statistics by increment.
    private func collectWithIncrements(
        _ stampId: String, userId: String, at now: Timestamp, postFields: Fields, as client: FirestoreClient
    ) async throws {
        try await client.setData(Self.collected(userId, stampId), ["collectedAt": .timestamp(now)])
        try await client.setData(Self.statistics(stampId), merging: [
            "totalCollectors": .increment(1), "collectorUserIds": .arrayUnion([.string(userId)]),
            "lastUpdated": .serverTimestamp,
        ])
        try await client.setData(Self.post("\(userId)_\(stampId)"), postFields)
    }

    /// The careful design: one transaction reads the record and the statistics, refuses a second
    /// collect, and writes the record, the recounted statistics and the post.
    private func collectInTransaction(
        _ stampId: String, userId: String, at now: Timestamp, postFields: Fields, recordFields: Fields, as client: FirestoreClient
    ) async throws {
        try await client.runTransaction { transaction in
            let stamp = try await transaction.get(DocumentPath("stamps", stampId))
            guard stamp.exists else { throw StampbookError.stampNotFound(stampId: stampId) }
            let record = try await transaction.get(Self.collected(userId, stampId))
            let statistics = try await transaction.get(Self.statistics(stampId))
            if record.exists { throw StampbookError.alreadyCollected(userId: userId, stampId: stampId) }
            var collectors = statistics["collectorUserIds"]?.arrayValue ?? []
            // Reads can straddle another transaction's commit (document by document); the
            // commit's version check would fail anyway, so retry now instead of asserting.
            if collectors.contains(.string(userId)) { throw BackendError.aborted(.conflict("read a collector without a collected record mid-commit")) }
            collectors.append(.string(userId))
            if self.variant == .collectorsListCapped && collectors.count > 10 { collectors.removeFirst(collectors.count - 10) }
            transaction.create(Self.collected(userId, stampId), recordFields)
            transaction.set(Self.statistics(stampId), [
                "totalCollectors": .int(Int64(collectors.count)), "collectorUserIds": .array(collectors),
                "lastUpdated": .timestamp(now),
            ])
            transaction.set(Self.post("\(userId)_\(stampId)"), postFields)
        }
    }

    /// `stamp_statistics/{stampId}`: (totalCollectors, collectorUserIds).
    public func statistics(of stampId: String) async -> (totalCollectors: Int64, collectorUserIds: [String]) {
        let snapshot = await backend.firestore.get(Self.statistics(stampId))
        return (snapshot["totalCollectors"]?.intValue ?? 0, (snapshot["collectorUserIds"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    // MARK: Feed

    /// Creates a feed post with a client-chosen id (so a retried create cannot duplicate it) and
    /// its "Only You" copy `users/{uid}/posts/{postId}`, in one transaction.
    func createPost(postId: String, stampId: String, caption: String, as client: FirestoreClient) async throws(StampbookError) {
        let userId = try uid(client)
        guard caption.count <= Self.captionLengthMaximum else {
            throw .captionTooLong(length: caption.count, maximum: Self.captionLengthMaximum)
        }
        do {
            try await client.runTransaction { transaction in
                let existing = try await transaction.get(Self.post(postId))
                if existing.exists { return }  // a retry of a post that already landed
                let now = self.backend.env.clock.now
                transaction.create(Self.post(postId), [
                    "userId": .string(userId), "stampId": .string(stampId), "caption": .string(caption),
                    "timestamp": .timestamp(now), "likeCount": 0, "commentCount": 0, "isCollection": false,
                ])
                transaction.set(Self.postCopy(userId, postId), ["postId": .string(postId), "timestamp": .timestamp(now)])
            }
        } catch { throw StampbookError.wrap(error) }
    }

    /// Deletes the caller's own post: the feed document, its "Only You" copy and every comment and
    /// like under it, in one transaction. The post is read first, so a comment or like committed
    /// after that read changes the post's counter and aborts this commit (it re-runs and deletes
    /// that one too); one committed before it is listed by the queries. A post already gone is
    /// success (a retry after a timed-out delete), and its copy is removed if it survived.
    func deletePost(postId: String, as client: FirestoreClient) async throws(StampbookError) {
        let userId = try uid(client)
        do {
            if variant == .postDeleteFeedOnly {
                // FeedManager's deletion, literally: the global feed document only.
                let post = try await client.get(Self.post(postId))
                guard post.exists else { return }
                guard post["userId"]?.stringValue == userId else { throw StampbookError.notPostAuthor(userId: userId, postId: postId) }
                try await client.delete(Self.post(postId))
                return
            }
            try await client.runTransaction { transaction in
                let post = try await transaction.get(Self.post(postId))
                guard post.exists else {
                    if try await transaction.get(Self.postCopy(userId, postId)).exists { transaction.delete(Self.postCopy(userId, postId)) }
                    return
                }
                guard post["userId"]?.stringValue == userId else { throw StampbookError.notPostAuthor(userId: userId, postId: postId) }
                for comment in try await client.query("feed_posts/\(postId)/comments") { transaction.delete(comment.path) }
                for like in try await client.query("feed_posts/\(postId)/likes") { transaction.delete(like.path) }
                transaction.delete(Self.post(postId))
                transaction.delete(Self.postCopy(userId, postId))
            }
        } catch { throw StampbookError.wrap(error) }
    }

    /// The caller's "Only You" tab: the ids in `users/{uid}/posts`, newest first.
    func ownPostIds(as client: FirestoreClient) async throws(StampbookError) -> [String] {
        let userId = try uid(client)
        do {
            return try await client.query("users/\(userId)/posts").sorted {
                let (left, right) = ($0["timestamp"]?.timestampValue ?? Timestamp(unixNanoseconds: 0), $1["timestamp"]?.timestampValue ?? Timestamp(unixNanoseconds: 0))
                return left != right ? left > right : $0.id < $1.id
            }.map(\.id)
        } catch { throw .backend(error) }
    }

    /// The feed, newest first ("All" tab), or only `userId`'s posts ("Only You").
    func feed(onlyUserId: String? = nil, as client: FirestoreClient) async throws(StampbookError) -> [DocumentSnapshot] {
        do {
            let posts = try await client.query("feed_posts") { onlyUserId == nil || $0["userId"]?.stringValue == onlyUserId }
            return posts.sorted {
                let (left, right) = ($0["timestamp"]?.timestampValue ?? Timestamp(unixNanoseconds: 0), $1["timestamp"]?.timestampValue ?? Timestamp(unixNanoseconds: 0))
                return left != right ? left > right : $0.id < $1.id
            }
        } catch { throw .backend(error) }
    }

    // MARK: Likes

    private func requests(for userId: String) -> StampbookLikeRequests {
        likeRequests.withLock { table in
            if let existing = table[userId] { return existing }
            let created = StampbookLikeRequests(userId: userId, environment: backend.env)
            table[userId] = created
            return created
        }
    }

    /// Likes (`liked == true`) or unlikes a post. A tap while the same post's request is in
    /// flight joins it (request de-duplication); the like document and `likeCount` change in
    /// one transaction, so repeats are no-ops. Returns false if the tap joined an earlier request.
    @discardableResult
    func setLike(postId: String, liked: Bool, as client: FirestoreClient) async throws(StampbookError) -> Bool {
        let userId = try uid(client)
        if variant == .likeDedupReentrant {
            let key = "like/\(userId)/\(postId)"
            guard await deviceMemory.claimAcrossAwait(key, at: backend.env.clock.now) else { return false }
            do {
                try await writeLikeIfChanged(postId: postId, userId: userId, liked: liked, client: client)
            } catch {
                await deviceMemory.release(key)
                throw StampbookError.wrap(error)
            }
            await deviceMemory.release(key)
            return true
        }
        do {
            return try await requests(for: userId).run(postId: postId) {
                try await self.writeLike(postId: postId, userId: userId, liked: liked, client: client)
            }
        } catch { throw StampbookError.wrap(error) }
    }

    /// `like-dedup-reentrant`: reads the like, and only if it differs writes it with the counter
    /// in one transaction that trusts that read (the de-duplication is meant to make it safe).
    private func writeLikeIfChanged(postId: String, userId: String, liked: Bool, client: FirestoreClient) async throws {
        let likePath = Self.like(postId, userId)
        if try await client.get(likePath).exists == liked { return }
        let tap = tapSequence.withLock { value -> UInt64 in value += 1; return value }
        try await client.runTransaction { transaction in
            let post = try await transaction.get(Self.post(postId))
            guard post.exists else { throw StampbookError.postNotFound(postId: postId) }
            // Idempotent against its own re-run only (an ambiguous commit re-runs the
            // transaction): another tap's like is not checked, the planted bug.
            if liked, try await transaction.get(likePath)["tap"] == .int(Int64(tap)) { return }
            if liked {
                transaction.set(likePath, ["userId": .string(userId), "createdAt": .timestamp(self.backend.env.clock.now), "tap": .int(Int64(tap))])
            } else {
                transaction.delete(likePath)
            }
            transaction.update(Self.post(postId), ["likeCount": .set(.int((post["likeCount"]?.intValue ?? 0) + (liked ? 1 : -1)))])
        }
    }

    private func writeLike(postId: String, userId: String, liked: Bool, client: FirestoreClient) async throws {
        let likePath = Self.like(postId, userId)
        if variant == .blindLikeIncrement {
            if liked {
                try await client.setData(likePath, ["userId": .string(userId)])
            } else {
                try await client.delete(likePath)
            }
            try await client.updateData(Self.post(postId), ["likeCount": .increment(.int(liked ? 1 : -1))])
            return
        }
        try await client.runTransaction { transaction in
            let post = try await transaction.get(Self.post(postId))
            guard post.exists else { throw StampbookError.postNotFound(postId: postId) }
            let like = try await transaction.get(likePath)
            if like.exists == liked { return }  // already in the requested state
            let count = post["likeCount"]?.intValue ?? 0
            if liked {
                transaction.create(likePath, ["userId": .string(userId), "createdAt": .timestamp(self.backend.env.clock.now)])
            } else {
                transaction.delete(likePath)
            }
            if !liked && count <= 0 { throw BackendError.aborted(.conflict("read a like without its count mid-commit")) }
            transaction.update(Self.post(postId), ["likeCount": .set(.int(count + (liked ? 1 : -1)))])
        }
    }

    // MARK: Comments

    /// Adds a comment with a client-assigned id (CommentManager's "manual document ID"), so a
    /// retry cannot duplicate it; `commentCount` changes in the same transaction.
    func addComment(postId: String, commentId: String, text: String, as client: FirestoreClient) async throws(StampbookError) {
        let userId = try uid(client)
        do {
            if variant == .commentCountIncrement {
                // CommentManager's optimistic path, literally: the comment, then the count.
                try await client.setData(Self.comment(postId, commentId), [
                    "userId": .string(userId), "text": .string(text), "createdAt": .timestamp(backend.env.clock.now),
                ])
                try await client.setData(Self.post(postId), merging: ["commentCount": .increment(1)])
                return
            }
            try await client.runTransaction { transaction in
                let post = try await transaction.get(Self.post(postId))
                guard post.exists else { throw StampbookError.postNotFound(postId: postId) }
                let comment = try await transaction.get(Self.comment(postId, commentId))
                if comment.exists { return }
                transaction.create(Self.comment(postId, commentId), [
                    "userId": .string(userId), "text": .string(text), "createdAt": .timestamp(self.backend.env.clock.now),
                ])
                transaction.update(Self.post(postId), ["commentCount": .set(.int((post["commentCount"]?.intValue ?? 0) + 1))])
            }
        } catch { throw StampbookError.wrap(error) }
    }

    /// Deletes the caller's own comment and decrements `commentCount` in one transaction.
    func deleteComment(postId: String, commentId: String, as client: FirestoreClient) async throws(StampbookError) {
        let userId = try uid(client)
        do {
            if variant == .commentCountIncrement {
                let comment = try await client.get(Self.comment(postId, commentId))
                guard comment.exists else { throw StampbookError.commentNotFound(postId: postId, commentId: commentId) }
                guard comment["userId"]?.stringValue == userId else { throw StampbookError.notCommentAuthor(userId: userId, commentId: commentId) }
                try await client.delete(Self.comment(postId, commentId))
                try await client.setData(Self.post(postId), merging: ["commentCount": .increment(-1)])
                return
            }
            try await client.runTransaction { transaction in
                let post = try await transaction.get(Self.post(postId))
                let comment = try await transaction.get(Self.comment(postId, commentId))
                guard comment.exists else { throw StampbookError.commentNotFound(postId: postId, commentId: commentId) }
                guard comment["userId"]?.stringValue == userId else { throw StampbookError.notCommentAuthor(userId: userId, commentId: commentId) }
                transaction.delete(Self.comment(postId, commentId))
                transaction.update(Self.post(postId), ["commentCount": .set(.int(max(0, (post["commentCount"]?.intValue ?? 0) - 1)))])
            }
        } catch { throw StampbookError.wrap(error) }
    }

    // MARK: Follows

    /// Follows or unfollows `targetUserId`; the following record and both counts change together.
    func setFollowing(_ targetUserId: String, following: Bool, as client: FirestoreClient) async throws(StampbookError) {
        let userId = try uid(client)
        guard userId != targetUserId else { throw .cannotFollowYourself(userId: userId) }
        do {
            if variant == .followCountIncrement {
                // FirebaseService's follow, literally: the record, then both counters.
                let record = try await client.get(Self.following(userId, targetUserId))
                if following && record.exists { throw StampbookError.alreadyFollowing(userId: userId, targetUserId: targetUserId) }
                if !following && !record.exists { throw StampbookError.notFollowing(userId: userId, targetUserId: targetUserId) }
                if following {
                    try await client.setData(Self.following(userId, targetUserId), ["since": .timestamp(backend.env.clock.now)])
                } else {
                    try await client.delete(Self.following(userId, targetUserId))
                }
                let delta: Int64 = following ? 1 : -1
                try await client.setData(DocumentPath("users", userId), merging: ["followingCount": .increment(.int(delta))])
                try await client.setData(DocumentPath("users", targetUserId), merging: ["followerCount": .increment(.int(delta))])
                return
            }
            try await client.runTransaction { transaction in
                let record = try await transaction.get(Self.following(userId, targetUserId))
                let follower = try await transaction.get(DocumentPath("users", userId))
                let target = try await transaction.get(DocumentPath("users", targetUserId))
                if following && record.exists { throw StampbookError.alreadyFollowing(userId: userId, targetUserId: targetUserId) }
                if !following && !record.exists { throw StampbookError.notFollowing(userId: userId, targetUserId: targetUserId) }
                let delta: Int64 = following ? 1 : -1
                if following {
                    transaction.create(Self.following(userId, targetUserId), ["since": .timestamp(self.backend.env.clock.now)])
                } else {
                    transaction.delete(Self.following(userId, targetUserId))
                }
                transaction.merge(DocumentPath("users", userId), ["followingCount": .set(.int((follower["followingCount"]?.intValue ?? 0) + delta))])
                transaction.merge(DocumentPath("users", targetUserId), ["followerCount": .set(.int((target["followerCount"]?.intValue ?? 0) + delta))])
            }
        } catch { throw StampbookError.wrap(error) }
    }

    // MARK: Rules

    /// Stampbook's rules file (`stampbook.rules`), as its team deploys it: the same rules as
    /// `securityRules`.
    public static var rulesText: String { String(decoding: PackageResources.stampbook_rules, as: UTF8.self) }

    /// Stampbook's rules: public stamps; statistics writable by signed-in users (as the seed says);
    /// each user owns their records; others may only change counters on posts and profiles.
    public static var securityRules: SecurityRules {
        var rules = SecurityRules()
        let signedIn: SecurityRules.Rule = { $0.auth != nil }
        rules.match("stamps") { $0.operation == .get || $0.operation == .list }
        rules.match("collections") { $0.operation == .get || $0.operation == .list }
        rules.match("stamp_statistics", signedIn)
        rules.match("users/{uid}/collected_stamps") { request in request.operation == .get || request.operation == .list ? request.auth != nil : isOwner(request, segment: 1) }
        rules.match("users/{uid}/following") { request in request.operation == .get || request.operation == .list ? request.auth != nil : isOwner(request, segment: 1) }
        rules.match("users") { request in
            guard let auth = request.auth else { return false }
            switch request.operation {
            case .get, .list: return true
            case .create, .update:
                if auth.uid == request.pathSegment(1) { return true }
                return onlyChanged(request, ["followerCount"])
            case .delete: return auth.uid == request.pathSegment(1)
            }
        }
        rules.match("users/{uid}/posts") { request in request.operation == .get || request.operation == .list ? request.auth != nil : isOwner(request, segment: 1) }
        rules.match("feed_posts/{postId}/likes") { request in
            if request.operation == .get || request.operation == .list { return request.auth != nil }
            return isOwner(request, segment: 3) || (request.operation == .delete && isPostAuthor(request))
        }
        rules.match("feed_posts/{postId}/comments") { request in
            guard let auth = request.auth else { return false }
            switch request.operation {
            case .get, .list: return true
            case .create: return request.data?["userId"]?.stringValue == auth.uid
            case .update: return request.resource?["userId"]?.stringValue == auth.uid
            case .delete: return request.resource?["userId"]?.stringValue == auth.uid || isPostAuthor(request)
            }
        }
        rules.match("feed_posts") { request in
            guard let auth = request.auth else { return false }
            switch request.operation {
            case .get, .list: return true
            case .create: return request.data?["userId"]?.stringValue == auth.uid
            case .update:
                if request.resource?["userId"]?.stringValue == auth.uid { return true }
                return onlyChanged(request, ["likeCount", "commentCount"])
            case .delete: return request.resource?["userId"]?.stringValue == auth.uid
            }
        }
        return rules
    }

    /// Whether the caller is the user whose id is path segment `segment`.
    @Sendable static func isOwner(_ request: RuleRequest, segment: Int) -> Bool {
        request.auth?.uid != nil && request.auth?.uid == request.pathSegment(segment)
    }

    /// Whether the caller wrote the post (path segment 1) a comment or like belongs to: the post's
    /// author may delete them when deleting the post.
    @Sendable static func isPostAuthor(_ request: RuleRequest) -> Bool {
        guard let uid = request.auth?.uid, let postId = request.pathSegment(1) else { return false }
        return request.lookup(post(postId))?["userId"]?.stringValue == uid
    }

    /// Whether a write changes no field outside `allowed` (rules' `diff().affectedKeys().hasOnly`:
    /// numbers compared by value, `1 == 1.0`).
    static func onlyChanged(_ request: RuleRequest, _ allowed: Set<String>) -> Bool {
        let before = request.resource ?? [:]
        let after = request.data ?? [:]
        let keys = Set(before.keys).union(after.keys)
        return keys.allSatisfy { allowed.contains($0) || RuleRequest.same(before[$0], after[$0]) }
    }
}
