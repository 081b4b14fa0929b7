import Synchronization

/// The announcements and the newest reply a load run has posted (what its members act on next,
/// and what its checks judge).
final class LatestPosts: Sendable {
    private let state = Mutex<(posts: [String], reply: String?)>(([], nil))

    /// The newest announcement's id.
    var post: String? { state.withLock { $0.posts.last } }
    /// Every announcement posted, oldest first.
    var posts: [String] { state.withLock { $0.posts } }
    /// The newest reply's id.
    var reply: String? { state.withLock { $0.reply } }
    /// Announcement `id` was posted.
    func post(_ id: String) { state.withLock { $0.posts.append(id) } }
    /// Reply `id` was posted.
    func reply(_ id: String) { state.withLock { $0.reply = id } }
}
