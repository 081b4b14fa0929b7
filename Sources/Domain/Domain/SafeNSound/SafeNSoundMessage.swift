import SimulatedFirebase

/// One push (FCM) or email (SendGrid) that SafeNSound hands to its messenger.
public struct SafeNSoundMessage: Sendable, Equatable, CustomStringConvertible {
    /// The channel a message goes out on.
    public enum Channel: String, Sendable { case push, email }
    /// What a message is for.
    public enum Purpose: String, Sendable {
        /// A scheduled alert: the pre-notification push or the email to the contacts.
        case alert
        /// The daily check-in reminder push (`sendDailyReminders`).
        case dailyReminder = "daily-reminder"
    }

    /// Push or email.
    public var channel: Channel
    /// The SafeNSound user the alert is about.
    public var userId: String
    /// FCM token for a push, email address for an email.
    public var recipient: String
    /// The push title or email subject.
    public var subject: String
    /// The push text or email body.
    public var body: String
    /// The scheduled alert this message sends.
    public var alertId: String
    /// When the messenger was handed the message.
    public var sentAt: Timestamp
    /// A scheduled alert unless said otherwise.
    public var purpose: Purpose = .alert

    /// One line: time, channel, recipient, alert, subject and body.
    public var description: String {
        "\(sentAt.unixNanoseconds) \(channel.rawValue) \(recipient) [\(alertId)] \(subject) | \(body)"
    }
}
