import SimulatedFirebase
import Synchronization

/// The Stampbook iOS app of one signed-in user: every action goes through the user's `FirestoreClient`, so it pays network faults and
/// is checked by Stampbook's rules; each throws `StampbookError` (`.backend` for what the backend refused).
public final class StampbookClient: Sendable {
    /// The signed-in user's id (nil: signed out).
    public var uid: String? { firestore.auth?.uid }
    /// The device's view of the backend (its network and auth).
    public let firestore: FirestoreClient
    let app: StampbookApp
    private let storageDevice = Mutex<StorageClient?>(nil)
    /// Collects whose photos this device left undecided (the look at the record after a failed
    /// collect went unanswered): kept on the device until a later look says whether the record lists them.
    let undecidedPhotos = Mutex<[StampbookApp.UndecidedPhotos]>([])

    init(app: StampbookApp, firestore: FirestoreClient) {
        self.app = app
        self.firestore = firestore
    }

    /// The device's Cloud Storage SDK (same user and connection), made on first use.
    public var storage: StorageClient {
        storageDevice.withLock { device in
            if let device { return device }
            let made = app.backend.storageClient(for: firestore, label: "stampbook/\(uid ?? "signed-out")")
            device = made
            return made
        }
    }

    /// Collects `stampId` with photos uploaded in parallel (docs/domain.md, Stampbook "Photos"):
    /// `photoUrls` lists only stored photos; nothing is left behind if the collect fails.
    @discardableResult
    public func collectStamp(_ stampId: String, caption: String = "", photos: [StorageUpload]) async throws(StampbookError) -> StampbookPhotoReport {
        try await app.collectStamp(stampId, caption: caption, photos: photos, as: self)
    }

    /// Whether an earlier collect on this device left photos undecided (see `finishPhotoCleanup`).
    public var hasUndecidedPhotos: Bool { undecidedPhotos.withLock { !$0.isEmpty } }

    /// What the app does when it opens and before each collect with photos: looks at the records
    /// of the collects that left photos undecided and deletes the photos no record lists. False
    /// while a look goes unanswered (those photos stay undecided).
    @discardableResult
    public func finishPhotoCleanup() async -> Bool {
        await app.finishPhotoCleanup(as: self)
    }

    /// Collects `stampId` for the caller: the collected record, the statistics and an
    /// `isCollection` feed post (id `{uid}_{stampId}`) commit together, once.
    public func collectStamp(_ stampId: String, caption: String = "") async throws(StampbookError) {
        try await app.collectStamp(stampId, caption: caption, as: firestore)
    }

    /// Creates a feed post with a client-chosen id (so a retried create cannot duplicate it) and
    /// its "Only You" copy `users/{uid}/posts/{postId}`, in one transaction.
    public func createPost(postId: String, stampId: String, caption: String) async throws(StampbookError) {
        try await app.createPost(postId: postId, stampId: stampId, caption: caption, as: firestore)
    }

    /// Deletes the caller's own post with its "Only You" copy, comments and likes, in one transaction.
    public func deletePost(postId: String) async throws(StampbookError) {
        try await app.deletePost(postId: postId, as: firestore)
    }

    /// The caller's "Only You" tab: the ids in `users/{uid}/posts`, newest first.
    public func ownPostIds() async throws(StampbookError) -> [String] {
        try await app.ownPostIds(as: firestore)
    }

    /// The feed, newest first ("All" tab), or only `userId`'s posts ("Only You").
    public func feed(onlyUserId: String? = nil) async throws(StampbookError) -> [DocumentSnapshot] {
        try await app.feed(onlyUserId: onlyUserId, as: firestore)
    }

    /// Likes (`liked == true`) or unlikes a post. A tap while the same post's request is in
    /// flight joins it (request de-duplication); the like document and `likeCount` change in
    /// one transaction, so repeats are no-ops. Returns false if the tap joined an earlier request.
    @discardableResult
    public func setLike(postId: String, liked: Bool) async throws(StampbookError) -> Bool {
        try await app.setLike(postId: postId, liked: liked, as: firestore)
    }

    /// Adds a comment with a client-assigned id (CommentManager's "manual document ID"), so a
    /// retry cannot duplicate it; `commentCount` changes in the same transaction.
    public func addComment(postId: String, commentId: String, text: String) async throws(StampbookError) {
        try await app.addComment(postId: postId, commentId: commentId, text: text, as: firestore)
    }

    /// Deletes the caller's own comment and decrements `commentCount` in one transaction.
    public func deleteComment(postId: String, commentId: String) async throws(StampbookError) {
        try await app.deleteComment(postId: postId, commentId: commentId, as: firestore)
    }

    /// Follows or unfollows `targetUserId`; the following record and both counts change together.
    public func setFollowing(_ targetUserId: String, following: Bool) async throws(StampbookError) {
        try await app.setFollowing(targetUserId, following: following, as: firestore)
    }
}

extension StampbookApp {
    /// The app on one user's device, signed in as `uid` (nil: signed out).
    public func client(uid: String?) -> StampbookClient {
        StampbookClient(app: self, firestore: backend.client(auth: uid.map { AuthContext(uid: $0) }, label: uid ?? "signed-out"))
    }
}
