import Synchronization

/// The newest announcement and reply a load run has posted (what its members act on next).
final class LatestPosts: Sendable {
    private let state = Mutex<(post: String?, reply: String?)>((nil, nil))

    /// The newest announcement's id.
    var post: String? { state.withLock { $0.post } }
    /// The newest reply's id.
    var reply: String? { state.withLock { $0.reply } }
    /// Announcement `id` was posted.
    func post(_ id: String) { state.withLock { $0.post = id } }
    /// Reply `id` was posted.
    func reply(_ id: String) { state.withLock { $0.reply = id } }
}
