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

/// Where SafeNSound's pushes and emails go (the backend outbox, or a test double).
public protocol SafeNSoundMessenger: Sendable {
    /// Sends one message; throws `deliveryFailed` if the provider rejected it.
    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError)
}

/// A messenger that records every message in send order (the outbox a run's report is built from).
public actor SafeNSoundOutbox: SafeNSoundMessenger, DomainActor {
    public nonisolated let executor: any SerialExecutor
    private var sent: [SafeNSoundMessage] = []

    public init(environment: DomainEnvironment) {
        self.executor = environment.makeExecutor(label: "safensound/outbox")
    }

    public func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        sent.append(message)
    }

    /// Every message delivered so far, in delivery order.
    public func messages() -> [SafeNSoundMessage] { sent }
}
