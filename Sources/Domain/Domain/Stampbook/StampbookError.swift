import SimulatedFirebase

/// A rejected Stampbook request; each message says what the caller can do.
public enum StampbookError: AppError, Equatable, CustomStringConvertible {
    case unauthenticated
    case stampNotFound(stampId: String)
    case alreadyCollected(userId: String, stampId: String)
    case postNotFound(postId: String)
    case captionTooLong(length: Int, maximum: Int)
    case commentNotFound(postId: String, commentId: String)
    case notCommentAuthor(userId: String, commentId: String)
    case notPostAuthor(userId: String, postId: String)
    case cannotFollowYourself(userId: String)
    case alreadyFollowing(userId: String, targetUserId: String)
    case notFollowing(userId: String, targetUserId: String)
    /// The backend refused or failed the request (rules, contention, network).
    case backend(BackendError)

    /// What went wrong and what the user can do.
    public var description: String {
        switch self {
        case .unauthenticated: return "Sign in to Stampbook first."
        case let .stampNotFound(stampId): return "No stamp \(stampId); refresh the map."
        case let .alreadyCollected(userId, stampId): return "\(userId) already collected \(stampId); each stamp is collected once."
        case let .postNotFound(postId): return "No feed post \(postId); it may have been deleted, refresh the feed."
        case let .captionTooLong(length, maximum): return "Caption has \(length) characters; shorten it to \(maximum)."
        case let .commentNotFound(postId, commentId): return "No comment \(commentId) on \(postId); refresh the comments."
        case let .notCommentAuthor(userId, commentId): return "\(userId) did not write comment \(commentId) and cannot delete it."
        case let .notPostAuthor(userId, postId): return "\(userId) did not write post \(postId) and cannot delete it."
        case let .cannotFollowYourself(userId): return "\(userId) cannot follow themselves."
        case let .alreadyFollowing(userId, target): return "\(userId) already follows \(target)."
        case let .notFollowing(userId, target): return "\(userId) does not follow \(target)."
        case let .backend(error): return "Backend: \(error)"
        }
    }

    /// The backend's error for `.backend`, nil for Stampbook's own refusals.
    public var backendError: BackendError? {
        if case .backend(let error) = self { return error }
        return nil
    }
}
