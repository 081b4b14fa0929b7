import SimulatedFirebase

/// Sends SafeNSound's alerts through the simulated backend: pushes via FCM
/// `sendEachForMulticast`, emails via SendGrid, so they land in `backend.outbox`.
///
/// A SendGrid 429 (nothing sent) or an FCM transient failure is a `deliveryFailed`, and the
/// sender returns the alert to `scheduled` for the next 2-minute run. A SendGrid time-out is a
/// `deliveryUnconfirmed`: the email may have gone out (SendGrid has no idempotency key), and
/// the sender retries it — a contact may get the alert twice, but never zero times. An FCM
/// UNREGISTERED answer is a `pushTokenInvalid` (the sender's invalid-token handling decides).
public struct SafeNSoundBackendMessenger: SafeNSoundMessenger {
    /// The backend whose FCM and SendGrid carry the messages.
    public let backend: Backend
    /// The From address of alert emails.
    public static let fromAddress = "alerts@safensound.app"

    /// A messenger sending through `backend`.
    public init(backend: Backend) { self.backend = backend }

    /// Sends a push through FCM or an email through SendGrid; their failures become `SafeNSoundError`.
    public func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        switch message.channel {
        case .push:
            let outcomes: [TokenOutcome]
            do {
                outcomes = try await backend.messaging.sendEachForMulticast(
                    tokens: [message.recipient],
                    message: PushMessage(
                        recipient: message.userId,
                        type: message.purpose == .dailyReminder ? "SAFENSOUND_DAILY_REMINDER" : "SAFENSOUND_PRE_NOTIFICATION",
                        title: message.subject, body: message.body,
                        data: ["alertId": message.alertId]))
            } catch {
                throw .deliveryFailed(recipient: message.recipient, reason: error.description)
            }
            assert(outcomes.count == 1, "one token, one outcome")
            switch outcomes.first {
            case .success?: return
            case .unregistered?: throw .pushTokenInvalid(token: message.recipient)
            default: throw .deliveryFailed(recipient: message.recipient, reason: "FCM transient failure")
            }
        case .email:
            do {
                try await backend.email.send(EmailMessage(
                    to: [message.recipient], from: Self.fromAddress, subject: message.subject,
                    type: "SAFENSOUND_MISSED_CHECK_IN", body: message.body))
            } catch BackendError.deadlineExceeded(let why) {
                throw .deliveryUnconfirmed(recipient: message.recipient, reason: why)  // may have been sent
            } catch {
                throw .deliveryFailed(recipient: message.recipient, reason: error.description)
            }
        }
    }
}
