/// An entry of `users/{id}/notifications`: a friend request or a nudge, with a read flag.
public struct UFreeNotification: Sendable, Equatable {
    /// What the notification is about.
    public enum Kind: String, Sendable { case friendRequest, nudge }

    public var notificationId: String
    public var kind: Kind
    public var senderId: String
    public var recipientId: String
    public var isRead: Bool
    public var createdAt: Timestamp
}
