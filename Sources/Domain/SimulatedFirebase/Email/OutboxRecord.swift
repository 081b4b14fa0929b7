/// One push or email that left the backend, as the outbox records it.
public struct OutboxRecord: Sendable, Hashable, CustomStringConvertible {
    /// Push (FCM) or email (SendGrid).
    public enum Channel: String, Sendable, Hashable { case push, email }
    /// What became of a message on its way (docs/domain.md, "FCM"): an email, and a push no later
    /// one superseded, is `delivered` at `deliveredAt`.
    public enum Fate: String, Sendable, Hashable {
        /// It reaches the device or inbox at `deliveredAt`.
        case delivered
        /// A newer push with the same collapse key replaced it before it reached the device (`fcm-collapse`).
        case collapsed
        /// The device was away, and APNs, which stores one notification per app for it, replaced
        /// it with a newer one (`apns-replaced`).
        case replaced
        /// The device was away longer than the push's time to live: it was dropped (`fcm-ttl-expired`).
        case expired
    }
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
    /// Virtual time it reaches the device or inbox (*estimate*, from the delivery model; for a
    /// push the `fate` of which is not `delivered`, when it would have).
    public let deliveredAt: Timestamp
    /// The FCM token, for pushes.
    public let token: String?
    /// The push's collapse key, if it had one.
    public let collapseKey: String?
    /// Whether the device was away when the push was sent, so APNs held it until `deliveredAt`.
    public let heldForDevice: Bool
    /// What became of it; the outbox updates it when a later push supersedes this one.
    public internal(set) var fate: Fate

    package init(
        channel: Channel, recipient: String, type: String, payload: [String: String], sentAt: Timestamp,
        deliveredAt: Timestamp, token: String?, collapseKey: String?, heldForDevice: Bool = false, fate: Fate = .delivered
    ) {
        self.channel = channel
        self.recipient = recipient
        self.type = type
        self.payload = payload
        self.sentAt = sentAt
        self.deliveredAt = deliveredAt
        self.token = token
        self.collapseKey = collapseKey
        self.heldForDevice = heldForDevice
        self.fate = fate
    }

    /// One line: send time, channel, type, recipient, token and payload.
    public var description: String {
        let body = payload.keys.sorted().map { "\($0)=\(payload[$0]!)" }.joined(separator: ",")
        return "\(sentAt.unixNanoseconds) \(channel.rawValue) \(type) → \(recipient)\(token.map { " [\($0)]" } ?? "") {\(body)}"
    }
}
