/// One push or email that left the backend, as the outbox records it.
public struct OutboxRecord: Sendable, Hashable, CustomStringConvertible {
    /// Push (FCM) or email (SendGrid).
    public enum Channel: String, Sendable, Hashable { case push, email }
    /// How the message went out.
    public let channel: Channel
    /// The user (push) or email address the message is for.
    public let recipient: String
    /// App-level type (`OUTBID`, `KIDDUSH_BOOKING`, ...).
    public let type: String
    /// Payload with deterministic keys (rendered sorted).
    public let payload: [String: String]
    /// Virtual time the backend sent it.
    public let sentAt: Timestamp
    /// Virtual time it reaches the device or inbox (*estimate*, from the delivery model).
    public let deliveredAt: Timestamp
    /// The FCM token, for pushes.
    public let token: String?
    /// The push's collapse key, if it had one.
    public let collapseKey: String?

    /// One line: send time, channel, type, recipient, token and payload.
    public var description: String {
        let body = payload.keys.sorted().map { "\($0)=\(payload[$0]!)" }.joined(separator: ",")
        return "\(sentAt.unixNanoseconds) \(channel.rawValue) \(type) → \(recipient)\(token.map { " [\($0)]" } ?? "") {\(body)}"
    }
}
