import SimulatedFirebase

/// A rejected UFree request; each message says what the caller can do.
public enum UFreeError: AppError, Equatable, CustomStringConvertible {
    case unauthenticated
    case permissionDenied(userId: String, resource: String)
    case userNotFound(userId: String)
    case cannotUpdatePastDate(day: String, today: String)
    case cannotFriendYourself(userId: String)
    case alreadyFriends(userId: String, friendId: String)
    case alreadyRequested(fromUserId: String, toUserId: String)
    case noPendingRequest(fromUserId: String, toUserId: String)
    case notFriends(userId: String, otherUserId: String)
    case nudgeTooSoon(fromUserId: String, toUserId: String, retryAfterSeconds: Int64)
    case nudgeInFlight(fromUserId: String, toUserId: String)
    case notificationNotFound(notificationId: String)
    case invalidPhoneNumber(String)
    case phoneNumberInUse(String)
    case lookupQuotaExceeded(userId: String, perDay: Int)
    /// The backend refused or failed the request (rules, contention, network).
    case backend(BackendError)

    /// What went wrong and what the user can do.
    public var description: String {
        switch self {
        case .unauthenticated: return "Sign in before using UFree."
        case let .permissionDenied(userId, resource): return "User \(userId) may not write \(resource); only its owner can."
        case let .userNotFound(userId): return "No UFree user \(userId); check the id or sign up first."
        case let .cannotUpdatePastDate(day, today): return "\(day) is before today (\(today)); pick today or a later day."
        case let .cannotFriendYourself(userId): return "User \(userId) cannot send a friend request to themselves."
        case let .alreadyFriends(userId, friendId): return "\(userId) and \(friendId) are already friends."
        case let .alreadyRequested(from, to): return "\(from) already asked \(to); wait for an answer."
        case let .noPendingRequest(from, to): return "There is no pending request from \(from) to \(to) to answer."
        case let .notFriends(userId, other): return "\(userId) and \(other) are not friends; send a friend request first."
        case let .nudgeTooSoon(from, to, retry): return "\(from) nudged \(to) moments ago; try again in \(retry) s."
        case let .nudgeInFlight(from, to): return "A nudge from \(from) to \(to) is still being sent; wait for it."
        case let .notificationNotFound(id): return "No notification \(id) in this inbox; refresh the inbox."
        case let .invalidPhoneNumber(raw): return "'\(raw)' is not a phone number UFree can read; enter it with its country code."
        case let .phoneNumberInUse(raw): return "\(raw) is registered to another account; contact support to move it."
        case let .lookupQuotaExceeded(userId, perDay): return "\(userId) has looked up \(perDay) contacts today; try again tomorrow."
        case let .backend(error): return "Backend: \(error)"
        }
    }

    /// The backend's error for `.backend`, nil for UFree's own refusals.
    public var backendError: BackendError? {
        if case .backend(let error) = self { return error }
        return nil
    }
}
