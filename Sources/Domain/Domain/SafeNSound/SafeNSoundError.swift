import SimulatedFirebase

/// A rejected SafeNSound request; each message says what the caller can do about it.
public enum SafeNSoundError: AppError, Equatable, CustomStringConvertible {
    case unauthenticated
    case userIdMismatch(authenticatedUserId: String, requestedUserId: String)
    case userNotFound(userId: String)
    case userAlreadyRegistered(userId: String)
    case rateLimited(userId: String, retryAfterSeconds: Int64)
    case invalidThreshold(hours: Int, allowedHours: [Int])
    case unknownTimeZone(identifier: String)
    case noEmergencyContacts(userId: String)
    case deliveryFailed(recipient: String, reason: String)
    /// The provider timed out after accepting the request: the message may have gone out. The
    /// recipient is not marked delivered, so the next run sends again (at-least-once).
    case deliveryUnconfirmed(recipient: String, reason: String)
    /// FCM answered UNREGISTERED for the push token: the app was reinstalled or the token rotated,
    /// and no push reaches the device until the app registers a new token on its next launch.
    case pushTokenInvalid(token: String)
    /// The backend refused or failed the request (network, an unknown function).
    case backend(BackendError)

    /// What went wrong and what the user can do.
    public var description: String {
        switch self {
        case .unauthenticated:
            return "recordHeartbeat requires a signed-in user; sign in (anonymous auth) and retry."
        case let .userIdMismatch(authenticated, requested):
            return "Caller \(authenticated) may not record a heartbeat for \(requested); omit userId or send your own."
        case let .userNotFound(userId):
            return "No SafeNSound profile for user \(userId); complete onboarding first."
        case let .userAlreadyRegistered(userId):
            return "User \(userId) already has a SafeNSound profile; update it instead of registering again."
        case let .rateLimited(userId, retryAfterSeconds):
            return "User \(userId) checked in less than a minute ago; retry in \(retryAfterSeconds) s."
        case let .invalidThreshold(hours, allowedHours):
            return "Check-in threshold \(hours) h is not offered; choose one of \(allowedHours) hours."
        case let .unknownTimeZone(identifier):
            return "Time zone \"\(identifier)\" is not an IANA identifier; send TimeZone.current.identifier."
        case let .noEmergencyContacts(userId):
            return "User \(userId) has no emergency contact; add at least one email address."
        case let .deliveryFailed(recipient, reason):
            return "Could not deliver to \(recipient): \(reason); the alert stays scheduled and is retried."
        case let .deliveryUnconfirmed(recipient, reason):
            return "Delivery to \(recipient) is unconfirmed (\(reason)); it may have been sent, and the next run sends it again (at-least-once)."
        case let .pushTokenInvalid(token):
            return "FCM push token \(token) is no longer registered; the app registers a new one on its next launch."
        case let .backend(error):
            return "Backend: \(error)"
        }
    }

    /// The backend's error for `.backend`, nil for SafeNSound's own refusals.
    public var backendError: BackendError? {
        if case .backend(let error) = self { return error }
        return nil
    }
}
