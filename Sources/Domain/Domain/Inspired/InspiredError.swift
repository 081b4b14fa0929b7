import SimulatedFirebase

/// A rejected Inspired request; each message says what the caller can do.
public enum InspiredError: AppError, Equatable, CustomStringConvertible {
    case unauthenticated
    case profileAlreadyExists(userId: String)
    case profileNotFound(userId: String)
    /// The security rules refused the read (private profile, no shared community).
    case profileNotVisible(userId: String)
    case publicProfileRequiresPublicAvatar
    /// The user's `showJoinedGroups` hides their communities from the caller.
    case joinedGroupsNotVisible(userId: String)
    case bioTooLong(length: Int, maximum: Int)
    case contentTooLong(length: Int, maximum: Int)
    case displayNameEmpty
    case usernameSpaceExhausted(displayName: String, attempts: Int)
    case postNotFound(postId: String)
    case alreadyLiked(userId: String, postId: String)
    case notLiked(userId: String, postId: String)
    case studioNotFound(studioId: String)
    /// Another owner claimed the studio first.
    case studioAlreadyClaimed(studioId: String)
    /// The verification code does not match the business's.
    case claimCodeInvalid(studioId: String)
    /// Another device of the user changed the avatar while this update was switching it; the
    /// newer one stays and this upload was deleted.
    case avatarChangedElsewhere(userId: String)
    case backend(BackendError)

    /// What went wrong and what the user can do.
    public var description: String {
        switch self {
        case .unauthenticated: return "Sign in (Google or magic link) first."
        case let .profileAlreadyExists(userId): return "User \(userId) already finished onboarding; edit the profile instead."
        case let .profileNotFound(userId): return "User \(userId) has no profile yet; complete onboarding."
        case .profileNotVisible: return "This profile is now private."
        case .joinedGroupsNotVisible: return "This member keeps their communities private."
        case .publicProfileRequiresPublicAvatar: return "A public profile needs avatarPrivacy \"public\"; change both together."
        case let .bioTooLong(length, maximum): return "Bio has \(length) characters; shorten it to \(maximum)."
        case let .contentTooLong(length, maximum): return "Post has \(length) characters; shorten it to \(maximum)."
        case .displayNameEmpty: return "Enter a display name."
        case let .usernameSpaceExhausted(name, attempts): return "No free username for \"\(name)\" after \(attempts) tries; pick another display name."
        case let .postNotFound(postId): return "No post \(postId); refresh the feed."
        case let .alreadyLiked(userId, postId): return "\(userId) already liked \(postId)."
        case let .notLiked(userId, postId): return "\(userId) has not liked \(postId)."
        case let .studioNotFound(studioId): return "No studio \(studioId); search again."
        case let .studioAlreadyClaimed(studioId): return "\(studioId) is already claimed by its owner; contact support if that is wrong."
        case let .claimCodeInvalid(studioId): return "The verification code for \(studioId) is wrong; check the code the studio received."
        case .avatarChangedElsewhere: return "Your avatar was changed on another device meanwhile; that one is kept. Try again to replace it."
        case let .backend(error): return "Backend: \(error)"
        }
    }

    /// The backend's error for `.backend`, nil for Inspired's own refusals.
    public var backendError: BackendError? {
        if case .backend(let error) = self { return error }
        return nil
    }
}
