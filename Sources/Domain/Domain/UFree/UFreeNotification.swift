import SimulatedFirebase

/// An entry of `users/{id}/notifications`: a friend request or a nudge, with a read flag.
public struct UFreeNotification: Sendable, Equatable {
    /// What the notification is about.
    public enum Kind: String, Sendable { case friendRequest, nudge }

    /// The notification's document id.
    public var notificationId: String
    /// A friend request or a nudge.
    public var kind: Kind
    /// Who sent it.
    public var senderId: String
    /// Whose inbox it is in.
    public var recipientId: String
    /// Whether the recipient has read it.
    public var isRead: Bool
    /// When it was sent.
    public var createdAt: Timestamp
}
