import SimulatedFirebase
import Synchronization

/// What admin-broadcast's people did, as their devices saw it: the oracle of its checks, kept
/// apart from the backend's own record (the functions' progress documents and notification ids).
final class BroadcastLog: Sendable {
    /// One like of one reply.
    struct ReplyLike: Hashable, Sendable, Comparable {
        let reply: String
        let liker: String
        static func < (a: ReplyLike, b: ReplyLike) -> Bool { (a.reply, a.liker) < (b.reply, b.liker) }
    }

    private struct State {
        var announcements: [String] = []
        var announcedAt: [String: Timestamp] = [:]
        var requestedAt: [String: Timestamp] = [:]
        var replies: [String: String] = [:]  // reply id -> author
        var likes: Set<ReplyLike> = []
    }
    private let state = Mutex(State())

    /// The admin was told at `time` (the backend's clock) that announcement `post`, first asked
    /// for at `requested`, was posted.
    func announced(_ post: String, at time: Timestamp, requested: Timestamp) {
        state.withLock { state in
            state.announcements.append(post)
            state.announcedAt[post] = time
            state.requestedAt[post] = requested
        }
    }
    /// `author` was told their reply `reply` was posted.
    func replied(_ reply: String, by author: String) { state.withLock { $0.replies[reply] = author } }
    /// `liker` was told their like of `reply` went through.
    func liked(_ reply: String, by liker: String) { state.withLock { _ = $0.likes.insert(ReplyLike(reply: reply, liker: liker)) } }

    /// Announcements confirmed, in posting order.
    var announcements: [String] { state.withLock { $0.announcements } }
    /// When the admin was told `post` was posted.
    func announcedAt(_ post: String) -> Timestamp? { state.withLock { $0.announcedAt[post] } }
    /// When the admin first asked to post `post` (no fan-out of it read a member before then).
    func requestedAt(_ post: String) -> Timestamp? { state.withLock { $0.requestedAt[post] } }
    /// Confirmed replies and their authors, by reply id.
    var replies: [String: String] { state.withLock { $0.replies } }
    /// Confirmed reply likes, sorted.
    var likes: [ReplyLike] { state.withLock { $0.likes.sorted() } }
}
