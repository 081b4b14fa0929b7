@testable import Domain
@testable import SimulatedFirebase

/// A messenger that fails scripted attempts per recipient (a 429, a time-out) and records the
/// rest in delivery order. A scripted `deliveryUnconfirmed` is recorded as sent: the time-out
/// came after SendGrid took the email.
actor ScriptedSafeNSoundMessenger: SafeNSoundMessenger {
    private var script: [String: [SafeNSoundError]]
    private(set) var sent: [SafeNSoundMessage] = []
    private(set) var attempts: [String] = []

    init(script: [String: [SafeNSoundError]]) { self.script = script }

    func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        attempts.append(message.recipient)
        if var errors = script[message.recipient], !errors.isEmpty {
            let error = errors.removeFirst()
            script[message.recipient] = errors
            if case .deliveryUnconfirmed = error { sent.append(message) }
            throw error
        }
        sent.append(message)
    }

    /// How many times `recipient` received something.
    func received(_ recipient: String) -> Int { sent.filter { $0.recipient == recipient }.count }
}
