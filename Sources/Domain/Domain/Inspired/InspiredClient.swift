import SimulatedFirebase
import Synchronization

/// The Inspired app of one signed-in user: every action goes through the user's `FirestoreClient`, so it pays network faults and
/// is checked by Inspired's rules; each throws `InspiredError` (`.backend` for what the backend refused).
public final class InspiredClient: Sendable {
    /// The signed-in user's id (nil: signed out).
    public var uid: String? { firestore.auth?.uid }
    /// The device's view of the backend (its network and auth).
    public let firestore: FirestoreClient
    let app: InspiredApp
    private let label: String
    private let storageDevice = Mutex<StorageClient?>(nil)
    /// Avatar URLs an update on this device left undecided (its read of the profile after a
    /// failed switch went unanswered): kept on the device until a later read says which are garbage.
    let undecidedAvatarURLs = Mutex<[String]>([])

    init(app: InspiredApp, firestore: FirestoreClient, label: String) {
        self.app = app
        self.firestore = firestore
        self.label = label
    }

    /// The device's Cloud Storage SDK (same user and connection), made on first use.
    public var storage: StorageClient {
        storageDevice.withLock { device in
            if let device { return device }
            let made = app.backend.storageClient(for: firestore, label: "inspired/\(label)")
            device = made
            return made
        }
    }

    /// Replaces the user's avatar (thumbnail and standard versions; docs/domain.md, Inspired "Avatars").
    public func updateAvatar(thumbBytes: Int, standardBytes: Int) async throws(InspiredError) {
        try await app.updateAvatar(thumbBytes: thumbBytes, standardBytes: standardBytes, as: self)
    }

    /// Whether an earlier avatar update on this device left objects undecided (see `finishAvatarCleanup`).
    public var hasUndecidedAvatarObjects: Bool { undecidedAvatarURLs.withLock { !$0.isEmpty } }

    /// What the app does when it opens and before each avatar update: reads the profile and deletes
    /// the objects an earlier update left undecided that it no longer names. False while the
    /// profile read goes unanswered (they stay undecided).
    @discardableResult
    public func finishAvatarCleanup() async -> Bool {
        await app.finishAvatarCleanup(as: self)
    }

    /// What the avatar view shows for `userId` (§ 5.3.1: placeholder on groups-only or 403).
    public func avatar(of userId: String) async throws(InspiredError) -> InspiredAvatar {
        try await app.avatar(of: userId, as: self)
    }

    /// One-time onboarding: creates `users/{uid}` with the default privacy settings.
    public func createProfile(displayName: String, bio: String = "", joinedCommunities: [String] = []) async throws(InspiredError) {
        try await app.createProfile(displayName: displayName, bio: bio, joinedCommunities: joinedCommunities, as: firestore)
    }

    /// Changes the caller's privacy settings; the public-profile constraint is checked here and by the rules.
    public func updatePrivacy(_ settings: InspiredPrivacySettings) async throws(InspiredError) {
        try await app.updatePrivacy(settings, as: firestore)
    }

    /// Claims `studioId` with the business's verification code (the `claimStudio` callable).
    public func claimStudio(_ studioId: String, code: String) async throws(InspiredError) {
        try await app.claimStudio(studioId, code: code, as: firestore)
    }

    /// The owner edits the studio's `about` (only the owner may).
    public func updateStudioAbout(_ studioId: String, about: String) async throws(InspiredError) {
        try await app.updateStudioAbout(studioId, about: about, as: firestore)
    }

    /// The communities `userId` joined, as `showJoinedGroups` lets the caller see them.
    public func joinedGroups(of userId: String) async throws(InspiredError) -> Set<String> {
        try await app.joinedGroups(of: userId, as: firestore)
    }

    /// Leaves a community: the overlap rule no longer counts it.
    public func leaveCommunity(_ communityId: String) async throws(InspiredError) {
        try await app.leaveCommunity(communityId, as: firestore)
    }

    /// Joins a community (area or studio).
    public func joinCommunity(_ communityId: String) async throws(InspiredError) {
        try await app.joinCommunity(communityId, as: firestore)
    }

    /// Reads a profile as the caller; a rules refusal becomes `profileNotVisible` ("This profile is now private.").
    public func profile(of userId: String) async throws(InspiredError) -> DocumentSnapshot {
        try await app.profile(of: userId, as: firestore)
    }

    /// Creates a post with a client-chosen id and the author's denormalized info.
    public func createPost(postId: String, content: String, source: (type: String, name: String)) async throws(InspiredError) {
        try await app.createPost(postId: postId, content: content, source: source, as: firestore)
    }

    /// Likes a post: creates `likes/{uid}` and increments `stats.likeCount` in one transaction.
    public func likePost(_ postId: String) async throws(InspiredError) {
        try await app.likePost(postId, as: firestore)
    }

    /// Unlikes a post: deletes `likes/{uid}` and decrements `stats.likeCount` in one transaction.
    public func unlikePost(_ postId: String) async throws(InspiredError) {
        try await app.unlikePost(postId, as: firestore)
    }

    /// The batched "did I like these?" query for one page of the feed.
    public func likedPostIds(among postIds: [String]) async throws(InspiredError) -> [String] {
        try await app.likedPostIds(among: postIds, as: firestore)
    }

    /// Adds a comment with a client-chosen id and increments `stats.commentCount` in one transaction.
    public func addComment(postId: String, commentId: String, text: String) async throws(InspiredError) {
        try await app.addComment(postId: postId, commentId: commentId, text: text, as: firestore)
    }
}

extension InspiredApp {
    /// The app on one user's device, signed in as `uid` (nil: signed out).
    public func client(uid: String?) -> InspiredClient {
        let label = uid ?? "signed-out"
        return InspiredClient(app: self, firestore: backend.client(auth: uid.map { AuthContext(uid: $0) }, label: label), label: label)
    }

    /// Another device of `uid` (`device` names its random streams: a second phone, a tablet).
    public func client(uid: String, device: String) -> InspiredClient {
        let label = "\(uid)/\(device)"
        return InspiredClient(app: self, firestore: backend.client(auth: AuthContext(uid: uid), label: label), label: label)
    }
}
