import Domain
import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase
import Synchronization

/// A messenger in front of the real one that fails every send of a user's push or email while
/// an outage declared in a check-in log (`email-fails:<minutes>`, `push-fails:<minutes>`) is
/// on: SendGrid answers 429, FCM a transient failure. The alert goes back to `scheduled` and the
/// next 2-minute run retries it, as in production. Every attempt, delivered or not, is reported
/// to `onAttempt` (the replay's table).
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
    private let onAttempt: @Sendable (SafeNSoundMessage, _ delivered: Bool) -> Void

    init(inner: any SafeNSoundMessenger, clock: DomainClock, onAttempt: @escaping @Sendable (SafeNSoundMessage, Bool) -> Void) {
        self.inner = inner
        self.clock = clock
        self.onAttempt = onAttempt
    }

    /// Declares an outage for `user` (outages may overlap; each counts on its own).
    func add(_ outage: Outage, for user: String) {
        outages.withLock { $0[user, default: []].append(outage) }
    }

    /// What the provider answers during an outage on `channel`.
    static func reason(_ channel: SafeNSoundMessage.Channel) -> String {
        channel == .email ? "SendGrid 429 Too Many Requests" : "FCM unavailable"
    }

    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        let now = clock.now
        let down = outages.withLock { table in
            // Most logs declare no outage: skip hashing the user id then.
            !table.isEmpty && (table[message.userId] ?? []).contains { $0.channel == message.channel && $0.from <= now && now < $0.until }
        }
        if down {
            onAttempt(message, false)
            throw .deliveryFailed(recipient: message.recipient, reason: Self.reason(message.channel))
        }
        do {
            try await inner.deliver(message)
        } catch {
            onAttempt(message, false)
            throw error
        }
        onAttempt(message, true)
    }
}
