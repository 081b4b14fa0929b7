/// One push (FCM) or email (SendGrid) that SafeNSound hands to its messenger.
public struct SafeNSoundMessage: Sendable, Equatable, CustomStringConvertible {
    /// The channel a message goes out on.
    public enum Channel: String, Sendable { case push, email }

    public var channel: Channel
    /// The SafeNSound user the alert is about.
    public var userId: String
    /// FCM token for a push, email address for an email.
    public var recipient: String
    public var subject: String
    public var body: String
    public var alertId: String
    public var sentAt: Timestamp

    public var description: String {
        "\(sentAt.unixNanoseconds) \(channel.rawValue) \(recipient) [\(alertId)] \(subject) | \(body)"
    }
}
