import SimulatedFirebase

/// Where SafeNSound's pushes and emails go (the backend outbox, or a test double).
public protocol SafeNSoundMessenger: Sendable {
    /// Sends one message; throws `deliveryFailed` if the provider rejected it.
    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError)
}
