import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

/// A messenger in front of SendGrid that refuses every email while one of the run's SendGrid
/// outages is on (503, nothing sent): the scenario's model of "Email Send Failure" lasting longer
/// than one retry. Pushes pass through.
final class SendGridOutageMessenger: SafeNSoundMessenger {
    /// `[from, until)` windows, fixed when the run is set up.
    let outages: [(from: Timestamp, until: Timestamp)]
    private let inner: any SafeNSoundMessenger
    private let clock: DomainClock

    init(inner: any SafeNSoundMessenger, clock: DomainClock, outages: [(from: Timestamp, until: Timestamp)]) {
        self.inner = inner
        self.clock = clock
        self.outages = outages
    }

    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        if message.channel == .email {
            let now = clock.now
            if outages.contains(where: { $0.from <= now && now < $0.until }) {
                throw .deliveryFailed(recipient: message.recipient, reason: "SendGrid 503 Service Unavailable (outage)")
            }
        }
        try await inner.deliver(message)
    }
}
