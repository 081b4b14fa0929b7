import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// What like-storm's users did, as their devices saw it: the oracle of the notification checks,
/// kept apart from the backend's own record (the functions' markers, the inbox ids).
final class FeedLog: Sendable {
    /// A user and a post: one liker of one post.
    struct Like: Hashable, Sendable, Comparable {
        let post: String
        let user: String
        static func < (a: Like, b: Like) -> Bool { (a.post, a.user) < (b.post, b.user) }
    }

    private struct State {
        var likesAttempted: Set<Like> = []
        var likesConfirmed: Set<Like> = []
        var repliesAttempted = 0
        var repliesConfirmed: [String: String] = [:]  // reply id -> parent post id
        var deletesSent: Set<String> = []
        var deletesConfirmed: Set<String> = []
    }

    private let state = Mutex(State())

    /// `user` sent a like of `post` (whether or not it was confirmed: a time-out may have committed).
    func likeSent(post: String, user: String) { state.withLock { _ = $0.likesAttempted.insert(Like(post: post, user: user)) } }
    /// `user` was told their like of `post` succeeded.
    func likeConfirmed(post: String, user: String) { state.withLock { _ = $0.likesConfirmed.insert(Like(post: post, user: user)) } }
    /// A reply was sent (its id is unknown until confirmed).
    func replySent() { state.withLock { $0.repliesAttempted += 1 } }
    /// A reply to `post` was confirmed with id `reply`.
    func replyConfirmed(reply: String, post: String) { state.withLock { $0.repliesConfirmed[reply] = post } }

    /// The author sent a delete of `post` (a time-out may have committed it).
    func deleteSent(post: String) { state.withLock { _ = $0.deletesSent.insert(post) } }
    /// The author was told `post` is deleted.
    func deleteConfirmed(post: String) { state.withLock { _ = $0.deletesConfirmed.insert(post) } }

    /// Posts whose delete was sent.
    var deletesSent: Set<String> { state.withLock { $0.deletesSent } }
    /// Posts whose delete was confirmed, sorted.
    var deletesConfirmed: [String] { state.withLock { $0.deletesConfirmed.sorted() } }
    /// Every (post, user) whose like was sent at least once.
    var likesAttempted: Set<Like> { state.withLock { $0.likesAttempted } }
    /// Every (post, user) whose like was confirmed at least once, sorted.
    var likesConfirmed: [Like] { state.withLock { $0.likesConfirmed.sorted() } }
    /// How many replies were sent.
    var repliesAttempted: Int { state.withLock { $0.repliesAttempted } }
    /// Confirmed replies: id -> parent post.
    var repliesConfirmed: [String: String] { state.withLock { $0.repliesConfirmed } }
}
