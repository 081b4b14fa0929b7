import SimulatedFirebase
import Synchronization

/// Inspired's data rules on the simulated backend: profiles with privacy settings and the
/// community-overlap read rule, generated unique `name#1234` usernames, posts, likes as
/// `posts/{postId}/likes/{userId}` with a transactional `stats.likeCount`, and comments.
///
/// Clients act through their `FirestoreClient`; the username is assigned by the
/// `assignUsername` onCreate trigger on `users` (at least once, so it is idempotent).
public final class InspiredApp: Sendable {
    /// The backend the app is deployed on.
    public let backend: Backend
    /// The design that runs.
    public let variant: InspiredVariant
    /// Digits of the username suffix (4 in the seed: `#1234`).
    public let usernameSuffixDigits: Int
    /// Suffixes tried before giving up with `usernameSpaceExhausted`.
    public let usernameAttemptsMaximum: Int
    /// Characters a profile's bio may have.
    public static let bioLengthMaximum = 280
    /// Characters a post may have.
    public static let contentLengthMaximum = 500
    let probe: InspiredProbe
    /// The devices' like-button guards (`like-tap-guard-reentrant`), keyed by user and post.
    let deviceMemory: InstanceMemory
    /// Numbers the like button's taps (`like-tap-guard-reentrant`): the SDK retries a transaction
    /// whose commit response was lost, and a tap must recognise its own earlier commit.
    private let tapSequence = Mutex<UInt64>(0)
    /// Numbers avatar uploads (`r1`, `r2`, …), standing in for the UUID a device would draw.
    let avatarRevisions = Mutex<Int>(0)

    /// Builds the app on `backend`, deploys its rules and registers the `assignUsername` trigger.
    public convenience init(backend: Backend, variant: InspiredVariant = .careful, usernameSuffixDigits: Int = 4) {
        self.init(backend: backend, variant: variant, usernameSuffixDigits: usernameSuffixDigits, probe: InspiredProbe())
    }

    package init(backend: Backend, variant: InspiredVariant, usernameSuffixDigits: Int, probe: InspiredProbe) {
        precondition((1...9).contains(usernameSuffixDigits), "username suffix needs 1 to 9 digits")
        self.backend = backend
        self.variant = variant
        self.usernameSuffixDigits = usernameSuffixDigits
        self.usernameAttemptsMaximum = 10
        self.probe = probe
        self.deviceMemory = InstanceMemory(env: backend.env, label: "inspired-devices")
        backend.setRules(Self.securityRules, source: Self.rulesText)
        backend.storage.setRules(Self.storageRules)
        // Both triggers are idempotent and deployed with retries: a crashed or timed-out invocation
        // would lose its event otherwise (MODEL_RULES §20).
        let retried = variant != .triggersWithoutRetries
        backend.functions.onCreate("users", name: "assignUsername", retry: retried) { [self] event in
            try await assignUsername(userId: event.path.id)
            try await backfillUsername(userId: event.path.id)
        }
        if variant != .authorMetadataNeverUpdated {
            backend.functions.onUpdate("users", name: "propagateAuthorMetadata", retry: retried) { [self] event in
                try await propagateAuthorMetadata(event)
            }
        }
    }

    static func user(_ userId: String) -> DocumentPath { DocumentPath("users", userId) }
    static func post(_ postId: String) -> DocumentPath { DocumentPath("posts", postId) }
    static func like(_ postId: String, _ userId: String) -> DocumentPath { post(postId).child("likes", userId) }
    static func comment(_ postId: String, _ commentId: String) -> DocumentPath { post(postId).child("comments", commentId) }

    private func uid(_ client: FirestoreClient) throws(InspiredError) -> String {
        guard let uid = client.auth?.uid else { throw .unauthenticated }
        return uid
    }

    // MARK: Profiles

    static func memberships(_ userId: String) -> DocumentPath { DocumentPath("memberships", userId) }

    /// One-time onboarding: creates `users/{uid}` with the default privacy settings and
    /// `memberships/{uid}` with the communities joined (docs/domain.md: the list lives in its own
    /// document so that `showJoinedGroups` can be enforced by the rules).
    func createProfile(displayName: String, bio: String = "", joinedCommunities: [String] = [], as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        guard !displayName.isEmpty else { throw .displayNameEmpty }
        guard bio.count <= Self.bioLengthMaximum else { throw .bioTooLong(length: bio.count, maximum: Self.bioLengthMaximum) }
        let now = backend.env.clock.now
        do {
            try await client.runTransaction { transaction in
                let existing = try await transaction.get(Self.user(userId))
                if existing.exists { throw InspiredError.profileAlreadyExists(userId: userId) }
                transaction.create(Self.user(userId), ([
                    "id": .string(userId), "displayName": .string(displayName), "bio": .string(bio),
                    "privacySettings": InspiredPrivacySettings.defaults.value,
                    "profilePictureUrl": .string("https://storage.example/avatars/\(userId).jpg"),
                    "thumbnailUrl": .string("https://storage.example/avatars/\(userId)_thumb.jpg"),
                    "createdAt": .timestamp(now), "updatedAt": .timestamp(now),
                ] as Fields).merging(self.variant == .joinedGroupsInProfile ? ["joinedCommunities": .array(joinedCommunities.map(Value.string))] : [:]) { $1 })
                transaction.set(Self.memberships(userId), ["communities": .array(joinedCommunities.map(Value.string))])
            }
        } catch { throw InspiredError.wrap(error) }
    }

    /// Changes the caller's privacy settings; the public-profile constraint is checked here and by the rules.
    func updatePrivacy(_ settings: InspiredPrivacySettings, as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        guard settings.isValid else { throw .publicProfileRequiresPublicAvatar }
        do {
            if variant == .privacySparseMerge {
                try await client.setData(Self.user(userId), merging: ["privacySettings": .set(settings.sparseValue), "updatedAt": .serverTimestamp])
                return
            }
            try await client.updateData(Self.user(userId), ["privacySettings": .set(settings.value), "updatedAt": .serverTimestamp])
        } catch { throw .backend(error) }
    }

    /// Joins a community (area or studio).
    func joinCommunity(_ communityId: String, as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        do {
            try await client.updateData(Self.memberships(userId), ["communities": .arrayUnion([.string(communityId)])])
            if variant == .joinedGroupsInProfile {
                try await client.updateData(Self.user(userId), ["joinedCommunities": .arrayUnion([.string(communityId)])])
            }
        } catch { throw .backend(error) }
    }

    /// Leaves a community (area or studio): from then on the overlap rule no longer counts it.
    func leaveCommunity(_ communityId: String, as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        do {
            try await client.updateData(Self.memberships(userId), ["communities": .arrayRemove([.string(communityId)])])
            if variant == .joinedGroupsInProfile {
                try await client.updateData(Self.user(userId), ["joinedCommunities": .arrayRemove([.string(communityId)])])
            }
        } catch { throw .backend(error) }
    }

    /// The communities `userId` joined, as the caller may see them (`showJoinedGroups`); a rules
    /// refusal becomes `joinedGroupsNotVisible`. The literal variant shows the profile's field.
    func joinedGroups(of userId: String, as client: FirestoreClient) async throws(InspiredError) -> Set<String> {
        guard client.auth != nil else { throw .unauthenticated }
        if variant == .joinedGroupsInProfile {
            let profile = try await profile(of: userId, as: client)
            return Set((profile["joinedCommunities"]?.arrayValue ?? []).compactMap(\.stringValue))
        }
        do {
            return Self.communities(try await client.get(Self.memberships(userId)).fields)
        } catch BackendError.permissionDenied {
            throw .joinedGroupsNotVisible(userId: userId)
        } catch { throw .backend(error) }
    }

    /// Reads a profile as the caller; a rules refusal becomes `profileNotVisible` ("This profile is now private.").
    func profile(of userId: String, as client: FirestoreClient) async throws(InspiredError) -> DocumentSnapshot {
        guard client.auth != nil else { throw .unauthenticated }
        do {
            let snapshot = try await client.get(Self.user(userId))
            guard snapshot.exists else { throw InspiredError.profileNotFound(userId: userId) }
            return snapshot
        } catch let error as InspiredError {
            throw error
        } catch BackendError.permissionDenied {
            throw .profileNotVisible(userId: userId)
        } catch { throw InspiredError.wrap(error) }
    }

    // MARK: Usernames

    /// `displayName` as a handle base: lower-cased, spaces to underscores ("Jane Doe" → "jane_doe").
    static func usernameBase(_ displayName: String) -> String {
        displayName.lowercased().split(separator: " ").joined(separator: "_")
    }

    /// The onCreate trigger: gives `users/{userId}` a unique `base#NNNN`. Candidates come from a
    /// seeded stream per display name and user, as independent function instances draw them (one
    /// stream per name alone hands every "Sam Lee" the same ten candidates, so the eleventh finds
    /// them all taken and stays nameless). The `unreservedUsername` variant keeps one stream per
    /// name so that its check-then-write race meets a colliding candidate within a few seeds; each is reserved with `create(usernames/{name})` in the
    /// same transaction that sets the profile's `username`, so two users can never share one and
    /// a duplicate delivery (which finds `username` already set) changes nothing.
    func assignUsername(userId: String) async throws {
        let profile = await backend.firestore.get(Self.user(userId))
        guard let displayName = profile["displayName"]?.stringValue, profile["username"] == nil else { return }
        let base = Self.usernameBase(displayName)
        let shared = variant == .unreservedUsername || variant == .usernameBlindCreate
        let stream = shared ? "inspired.username/\(base)" : "inspired.username/\(base)/\(userId)"
        var candidates = backend.env.randomStream(stream)
        var modulus: UInt64 = 1
        for _ in 0..<usernameSuffixDigits { modulus *= 10 }
        if variant == .usernameBlindCreate {
            try await claimBlindly(base: base, userId: userId, stream: stream, modulus: modulus)
            return
        }
        for _ in 0..<usernameAttemptsMaximum {
            var suffix = String(candidates.next() % modulus)
            suffix = String(repeating: "0", count: usernameSuffixDigits - suffix.count) + suffix
            let username = "\(base)#\(suffix)"
            await probe.beforeUsernameClaim(userId)
            if variant == .unreservedUsername {
                let taken = await backend.firestore.fetch("users") { $0["username"]?.stringValue == username }
                if !taken.isEmpty { continue }
                await probe.betweenUsernameCheckAndWrite(userId)
                try await backend.firestore.update(Self.user(userId), ["username": .set(.string(username))])
                return
            }
            if try await claimUsername(username, for: userId) { return }
        }
        throw InspiredError.usernameSpaceExhausted(displayName: displayName, attempts: usernameAttemptsMaximum)
    }

    /// The seed denormalises the author's username into posts and comments "for fast rendering";
    /// one written before this trigger ran holds `null`. Its transaction read the profile, so it
    /// committed before the username did, and this query (after the username) sees it. Each fix
    /// is a server transaction that writes only a still-null username, so duplicate deliveries
    /// and a concurrent rename cannot be overwritten.
    func backfillUsername(userId: String) async throws {
        guard let username = await backend.firestore.get(Self.user(userId))["username"], username != .null else { return }
        var targets: [DocumentPath] = []
        for post in await backend.firestore.fetch("posts") {
            if Self.needsUsername(post, of: userId) { targets.append(post.path) }
            for comment in await backend.firestore.fetch("posts/\(post.id)/comments") where Self.needsUsername(comment, of: userId) {
                targets.append(comment.path)
            }
        }
        for path in targets {
            try await backend.firestore.runTransaction { transaction in
                let current = try await transaction.get(path)
                guard Self.needsUsername(current, of: userId) else { return }
                transaction.update(path, ["author.username": .set(username)])
            }
        }
    }

    private static func needsUsername(_ snapshot: DocumentSnapshot, of userId: String) -> Bool {
        guard let author = snapshot["author"]?.mapValue, author["id"]?.stringValue == userId else { return false }
        return (author["username"] ?? .null) == .null
    }

    /// One reservation attempt in a server transaction; true if the user now has a username.
    /// Contention (ABORTED after 5 attempts) is retried for a few more rounds, because a trigger
    /// that throws loses its event (retries are off by default) and the user would stay nameless.
    /// The variant `username-blind-create`: one server transaction draws a suffix and creates the
    /// reservation without reading it, counting on a collision to retry the transaction with the
    /// next suffix. A failed create is no contention: the admin SDK answers ALREADY_EXISTS at once
    /// and the user stays nameless.
    private func claimBlindly(base: String, userId: String, stream: String, modulus: UInt64) async throws {
        let draws = Mutex(backend.env.randomStream(stream))
        let digits = usernameSuffixDigits
        try await backend.firestore.runTransaction { transaction in
            if try await transaction.get(Self.user(userId))["username"] != nil { return }
            var suffix = String(draws.withLock { $0.next() } % modulus)
            suffix = String(repeating: "0", count: digits - suffix.count) + suffix
            let username = "\(base)#\(suffix)"
            transaction.create(DocumentPath("usernames", username), ["userId": .string(userId)])
            transaction.update(Self.user(userId), ["username": .set(.string(username))])
        }
    }

    private func claimUsername(_ username: String, for userId: String) async throws -> Bool {
        let roundsMaximum = 3
        for round in 1...roundsMaximum {
            do {
                let assigned: Bool? = try await backend.firestore.runTransaction { transaction in
                    let user = try await transaction.get(Self.user(userId))
                    if user["username"] != nil { return true }
                    let reservation = try await transaction.get(DocumentPath("usernames", username))
                    if reservation.exists { return nil }
                    transaction.create(DocumentPath("usernames", username), ["userId": .string(userId)])
                    transaction.update(Self.user(userId), ["username": .set(.string(username))])
                    return true
                }
                return assigned != nil
            } catch BackendError.aborted(let reason) where round < roundsMaximum {
                _ = reason
            }
        }
        preconditionFailure("the last round either returns or throws")
    }

    // MARK: Posts

    /// Creates a post with a client-chosen id and the author's denormalized info.
    func createPost(postId: String, content: String, source: (type: String, name: String), as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        guard content.count <= Self.contentLengthMaximum else { throw .contentTooLong(length: content.count, maximum: Self.contentLengthMaximum) }
        let now = backend.env.clock.now
        do {
            try await client.runTransaction { transaction in
                let profile = try await transaction.get(Self.user(userId))
                guard profile.exists else { throw InspiredError.profileNotFound(userId: userId) }
                let existing = try await transaction.get(Self.post(postId))
                if existing.exists { return }
                transaction.create(Self.post(postId), [
                    "id": .string(postId),
                    "author": .map(self.authorMetadata(userId, profile.fields ?? [:])),
                    "content": .string(content),
                    "source": .map(["type": .string(source.type), "name": .string(source.name)]),
                    "stats": .map(["likeCount": 0, "commentCount": 0]),
                    "createdAt": .timestamp(now),
                ])
            }
        } catch { throw InspiredError.wrap(error) }
    }

    /// Likes a post: creates `likes/{uid}` and increments `stats.likeCount` in one transaction.
    func likePost(_ postId: String, as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        let now = backend.env.clock.now
        if variant == .likeTapGuardReentrant {
            let key = "\(userId)/\(postId)"
            guard await deviceMemory.claimAcrossAwait(key, at: now) else { return }
            do {
                if try await client.get(Self.like(postId, userId)).exists { throw InspiredError.alreadyLiked(userId: userId, postId: postId) }
                let tap = tapSequence.withLock { value -> UInt64 in value += 1; return value }
                try await client.runTransaction { transaction in
                    let post = try await transaction.get(Self.post(postId))
                    guard post.exists else { throw InspiredError.postNotFound(postId: postId) }
                    // Idempotent against its own retry only (an ambiguous commit re-runs the
                    // transaction): another tap's like is not checked, which is the planted bug.
                    if try await transaction.get(Self.like(postId, userId))["tap"] == .int(Int64(tap)) { return }
                    let count = post["stats"]?.mapValue?["likeCount"]?.intValue ?? 0
                    transaction.set(Self.like(postId, userId), ["userId": .string(userId), "createdAt": .timestamp(now), "tap": .int(Int64(tap))])
                    transaction.update(Self.post(postId), ["stats.likeCount": .set(.int(count + 1))])
                }
            } catch {
                // The button stays "in flight" after a failure (the optimistic UI keeps the
                // like), so a retry cannot re-read before a late commit lands and count twice.
                throw InspiredError.wrap(error)
            }
            await deviceMemory.release(key)
            return
        }
        do {
            if variant == .likeWithoutTransaction {
                try await client.setData(Self.like(postId, userId), ["userId": .string(userId), "createdAt": .timestamp(now)])
                try await client.updateData(Self.post(postId), ["stats.likeCount": .increment(1)])
                return
            }
            try await client.runTransaction { transaction in
                let post = try await transaction.get(Self.post(postId))
                guard post.exists else { throw InspiredError.postNotFound(postId: postId) }
                let like = try await transaction.get(Self.like(postId, userId))
                if like.exists { throw InspiredError.alreadyLiked(userId: userId, postId: postId) }
                let count = post["stats"]?.mapValue?["likeCount"]?.intValue ?? 0
                transaction.create(Self.like(postId, userId), ["userId": .string(userId), "createdAt": .timestamp(now)])
                transaction.update(Self.post(postId), ["stats.likeCount": .set(.int(count + 1))])
            }
        } catch { throw InspiredError.wrap(error) }
    }

    /// Unlikes a post: deletes `likes/{uid}` and decrements `stats.likeCount` in one transaction.
    func unlikePost(_ postId: String, as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        do {
            try await client.runTransaction { transaction in
                let post = try await transaction.get(Self.post(postId))
                guard post.exists else { throw InspiredError.postNotFound(postId: postId) }
                let like = try await transaction.get(Self.like(postId, userId))
                guard like.exists else { throw InspiredError.notLiked(userId: userId, postId: postId) }
                let count = post["stats"]?.mapValue?["likeCount"]?.intValue ?? 0
                if count <= 0 { throw BackendError.aborted(.conflict("read a like without its count mid-commit")) }  // straddled a commit: retry
                transaction.delete(Self.like(postId, userId))
                transaction.update(Self.post(postId), ["stats.likeCount": .set(.int(count - 1))])
            }
        } catch { throw InspiredError.wrap(error) }
    }

    /// The batched "did I like these?" query for one page of the feed.
    func likedPostIds(among postIds: [String], as client: FirestoreClient) async throws(InspiredError) -> [String] {
        let userId = try uid(client)
        var liked: [String] = []
        for postId in postIds {
            do {
                if try await client.get(Self.like(postId, userId)).exists { liked.append(postId) }
            } catch { throw .backend(error) }
        }
        return liked
    }

    /// Adds a comment with a client-chosen id and increments `stats.commentCount` in one transaction.
    func addComment(postId: String, commentId: String, text: String, as client: FirestoreClient) async throws(InspiredError) {
        let userId = try uid(client)
        let now = backend.env.clock.now
        do {
            try await client.runTransaction { transaction in
                let post = try await transaction.get(Self.post(postId))
                guard post.exists else { throw InspiredError.postNotFound(postId: postId) }
                let profile = try await transaction.get(Self.user(userId))
                let existing = try await transaction.get(Self.comment(postId, commentId))
                if existing.exists { return }
                let count = post["stats"]?.mapValue?["commentCount"]?.intValue ?? 0
                transaction.create(Self.comment(postId, commentId), [
                    "id": .string(commentId),
                    "author": .map(["id": .string(userId), "username": profile["username"] ?? .null, "thumbnailUrl": profile["thumbnailUrl"] ?? .null]),
                    "text": .string(text), "createdAt": .timestamp(now),
                ])
                transaction.update(Self.post(postId), ["stats.commentCount": .set(.int(count + 1))])
            }
        } catch { throw InspiredError.wrap(error) }
    }

    // MARK: Rules

    /// Inspired's rules file (`inspired.rules`), as its team deploys it: the same rules as `securityRules`.
    public static var rulesText: String { String(decoding: PackageResources.inspired_rules, as: UTF8.self) }

    /// Inspired's rules, including the community-overlap read rule behind the four mandatory cases:
    /// a signed-in caller reads a profile if it is their own, its avatar is public (or the profile
    /// is public), or the two users share a joined community; signed-out callers read nothing.
    public static var securityRules: SecurityRules {
        var rules = SecurityRules()
        addProfileRules(&rules)
        addStudioRules(&rules)
        addMembershipAndUsernameRules(&rules)
        addPostRules(&rules)
        return rules
    }

    /// Profile rules: the owner writes their own (never its username, the trigger's); others read
    /// it under the overlap rule.
    private static func addProfileRules(_ rules: inout SecurityRules) {
        rules.match("users") { request in
            guard let auth = request.auth else { return false }
            let isOwner = auth.uid == request.pathSegment(1)
            switch request.operation {
            case .get, .list:
                guard let profile = request.resource else { return isOwner }
                return isOwner || isVisible(profile, communities: communities(request.lookup(memberships(request.pathSegment(1) ?? ""))),
                                            viewerCommunities: communities(request.lookup(memberships(auth.uid))))
            case .create:
                return isOwner && InspiredPrivacySettings.isValid(request.data?["privacySettings"]) && request.data?["username"] == nil
            case .update:
                return isOwner && InspiredPrivacySettings.isValid(request.data?["privacySettings"])
                    && request.data?["username"] == request.resource?["username"]
            case .delete:
                return isOwner
            }
        }
    }

    /// Membership rules by `showJoinedGroups`, and usernames readable by any signed-in user.
    private static func addMembershipAndUsernameRules(_ rules: inout SecurityRules) {
        // showJoinedGroups (§ 2.1.1): public → any signed-in user; groups-only → users sharing a
        // community; members-only → the member alone (docs/domain.md).
        rules.match("memberships") { request in
            guard let auth = request.auth, let owner = request.pathSegment(1) else { return false }
            if auth.uid == owner { return true }
            guard request.operation == .get else { return false }
            let setting = request.lookup(user(owner))?["privacySettings"]?.mapValue?["showJoinedGroups"]?.stringValue
            switch InspiredPrivacySettings.GroupsVisibility(rawValue: setting ?? "") ?? .membersOnly {
            case .public: return true
            case .groupsOnly: return !communities(request.resource).isDisjoint(with: communities(request.lookup(memberships(auth.uid))))
            case .membersOnly: return false
            }
        }
        rules.match("usernames") { $0.auth != nil && ($0.operation == .get || $0.operation == .list) }
    }

    /// Post, like and comment rules: signed-in users read; authors (a like's owner) write their
    /// own; another user may change only a post's `stats` (the like counter).
    private static func addPostRules(_ rules: inout SecurityRules) {
        rules.match("posts/{postId}/likes") { request in
            guard let auth = request.auth else { return false }
            if request.operation == .get || request.operation == .list { return true }
            return auth.uid == request.pathSegment(3)
        }
        rules.match("posts/{postId}/comments") { request in
            guard let auth = request.auth else { return false }
            switch request.operation {
            case .get, .list: return true
            case .create: return request.data?["author"]?.mapValue?["id"]?.stringValue == auth.uid
            case .update, .delete: return request.resource?["author"]?.mapValue?["id"]?.stringValue == auth.uid
            }
        }
        rules.match("posts") { request in
            guard let auth = request.auth else { return false }
            switch request.operation {
            case .get, .list: return true
            case .create: return request.data?["author"]?.mapValue?["id"]?.stringValue == auth.uid
            case .update:
                if request.resource?["author"]?.mapValue?["id"]?.stringValue == auth.uid { return true }
                let before = request.resource ?? [:], after = request.data ?? [:]
                return Set(before.keys).union(after.keys).allSatisfy { $0 == "stats" || RuleRequest.same(before[$0], after[$0]) }
            case .delete: return request.resource?["author"]?.mapValue?["id"]?.stringValue == auth.uid
            }
        }
    }

    /// Whether `profile`, whose owner joined `communities`, may be read by a user who joined
    /// `viewerCommunities` (the overlap rule).
    static func isVisible(_ profile: Fields, communities theirs: Set<String>, viewerCommunities mine: Set<String>) -> Bool {
        let privacy = profile["privacySettings"]?.mapValue
        if privacy?["avatarPrivacy"]?.stringValue == InspiredPrivacySettings.AvatarPrivacy.public.rawValue { return true }
        if privacy?["isProfilePublic"]?.boolValue == true { return true }
        return !mine.isDisjoint(with: theirs)
    }

    /// The communities a `memberships/{uid}` document lists.
    static func communities(_ memberships: Fields?) -> Set<String> {
        Set((memberships?["communities"]?.arrayValue ?? []).compactMap(\.stringValue))
    }
}
