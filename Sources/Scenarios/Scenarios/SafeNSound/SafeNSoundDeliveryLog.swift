import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// A messenger in front of the real one that records every delivery attempt (when it started,
/// what it carried, whether the provider took it), so checkers can see each push and email.
final class SafeNSoundDeliveryLog: SafeNSoundMessenger {
    /// One attempt to hand a message to FCM or SendGrid.
    struct Delivery: Sendable {
        let message: SafeNSoundMessage
        /// Calendar time when the send started (the sender's `sentAt` is its run's start).
        let startedAt: Timestamp
        /// The provider took the message (true also for a time-out: SendGrid sent it, then timed out).
        let delivered: Bool
        /// SendGrid timed out after sending: the app could not know, and retries (at-least-once).
        var timedOut = false
    }

    private let inner: any SafeNSoundMessenger
    private let clock: DomainClock
    private let onDelivery: @Sendable (Delivery) -> Void
    private let state = Mutex<[Delivery]>([])

    init(inner: any SafeNSoundMessenger, clock: DomainClock, onDelivery: @escaping @Sendable (Delivery) -> Void = { _ in }) {
        self.inner = inner
        self.clock = clock
        self.onDelivery = onDelivery
    }

    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        let startedAt = clock.now
        do {
            try await inner.deliver(message)
        } catch .deliveryUnconfirmed(let recipient, let reason) {
            record(Delivery(message: message, startedAt: startedAt, delivered: true, timedOut: true))
            throw .deliveryUnconfirmed(recipient: recipient, reason: reason)
        } catch {
            record(Delivery(message: message, startedAt: startedAt, delivered: false))
            throw error
        }
        record(Delivery(message: message, startedAt: startedAt, delivered: true))
    }

    private func record(_ delivery: Delivery) {
        state.withLock { $0.append(delivery) }
        onDelivery(delivery)
    }

    /// Every attempt so far, in the order they finished.
    var deliveries: [Delivery] { state.withLock { $0 } }

    /// The attempts from the `position`-th on (a checker's cursor), in the order they finished.
    func deliveries(from position: Int) -> ArraySlice<Delivery> {
        state.withLock { $0[min(max(0, position), $0.count)...] }
    }
}
