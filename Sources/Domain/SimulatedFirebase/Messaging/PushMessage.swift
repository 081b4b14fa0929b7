/// A push notification as a Cloud Function builds it for `sendEachForMulticast`.
public struct PushMessage: Sendable, Hashable {
    /// The user the tokens belong to (recorded in the outbox).
    public let recipient: String
    /// The app's kind of notification (e.g. "OUTBID"), for checkers.
    public let type: String
    /// The notification's title.
    public let title: String
    /// The notification's text.
    public let body: String
    /// The data payload (ids the app opens).
    public let data: [String: String]
    /// FCM's collapse key (`android.collapseKey`, `apns-collapse-id`): a message still waiting for
    /// its device is replaced by a newer one with the same key (nil: never collapsed).
    public let collapseKey: String?
    /// FCM's time to live (`android.ttl`, `apns-expiration`): how long the platform keeps the push
    /// for a device that is away before dropping it; zero means "deliver now or never" (nil: FCM's
    /// default, four weeks).
    public let timeToLive: Duration?

    /// A push with every field given.
    public init(
        recipient: String, type: String, title: String, body: String, data: [String: String] = [:],
        collapseKey: String? = nil, timeToLive: Duration? = nil
    ) {
        precondition(timeToLive.map { $0 >= .zero } ?? true, "a time to live is never negative")
        self.recipient = recipient
        self.type = type
        self.title = title
        self.body = body
        self.data = data
        self.collapseKey = collapseKey
        self.timeToLive = timeToLive
    }
}

/// The per-token result of a multicast (partial failures never throw; MODEL_RULES §16).
public enum TokenOutcome: Sendable, Hashable {
    case success
    /// The app was uninstalled or the token rotated: the caller must delete the token.
    case unregistered
    /// A transient per-token failure (e.g. `messaging/internal-error`).
    case transientFailure
}
