import Domain
import Synchronization

/// A messenger in front of the real one that fails every send of a user's push or email while
/// an outage declared in a check-in log (`email-fails:<minutes>`, `push-fails:<minutes>`) is
/// on: SendGrid answers 429, FCM a transient failure. The alert goes back to `scheduled` and the
/// next 2-minute run retries it, as in production.
final class CheckInOutageMessenger: SafeNSoundMessenger {
    /// One declared outage: `[from, until)` on `channel` for one user.
    struct Outage: Sendable {
        let channel: SafeNSoundMessage.Channel
        let from: Timestamp
        let until: Timestamp
    }

    private let inner: any SafeNSoundMessenger
    private let clock: DomainClock
    private let outages = Mutex<[String: [Outage]]>([:])

    init(inner: any SafeNSoundMessenger, clock: DomainClock) {
        self.inner = inner
        self.clock = clock
    }

    /// Declares an outage for `user` (outages may overlap; each counts on its own).
    func add(_ outage: Outage, for user: String) {
        outages.withLock { $0[user, default: []].append(outage) }
    }

    /// The reason a send now fails, or nil when no outage covers it.
    static func reason(_ channel: SafeNSoundMessage.Channel) -> String {
        channel == .email ? "SendGrid 429 Too Many Requests" : "FCM unavailable"
    }

    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        let now = clock.now
        let down = outages.withLock { table in
            (table[message.userId] ?? []).contains { $0.channel == message.channel && $0.from <= now && now < $0.until }
        }
        if down { throw .deliveryFailed(recipient: message.recipient, reason: Self.reason(message.channel)) }
        try await inner.deliver(message)
    }
}
