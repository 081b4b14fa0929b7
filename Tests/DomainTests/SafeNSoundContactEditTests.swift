@testable import Domain
@testable import SimulatedFirebase
import Synchronization
import Testing

/// Editing emergency contacts while an email alert is pending: who gets the alert?
@Suite("SafeNSound contact edits while an alert is pending")
struct SafeNSoundContactEditTests {
    private var start: Timestamp { Timestamp(unixNanoseconds: testEpochUnixNanoseconds) }

    /// Forwards to the backend; after the first email it runs `afterFirstEmail` (an edit in
    /// Settings landing while the sender is between two contacts).
    final class EditingMessenger: SafeNSoundMessenger {
        let inner: SafeNSoundBackendMessenger
        let afterFirstEmail = Mutex<(@Sendable () async -> Void)?>(nil)
        init(backend: Backend) { inner = SafeNSoundBackendMessenger(backend: backend) }
        func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
            try await inner.deliver(message)
            if message.channel == .email, let hook = afterFirstEmail.withLock({ hook in defer { hook = nil }; return hook }) { await hook() }
        }
    }

    private func deploy(_ variant: SafeNSoundVariant) async throws -> (SafeNSoundApp, Backend, EditingMessenger) {
        let backend = makeBackend()
        let messenger = EditingMessenger(backend: backend)
        let app = SafeNSoundApp.deployed(on: backend, configuration: SafeNSoundConfiguration(variant: variant), messenger: messenger)
        try await app.registerUser(SafeNSoundUser(
            userId: "u1", name: "Ana", fcmToken: "tok-u1", emergencyContactEmails: ["a@example.com", "b@example.com"],
            checkInThresholdHours: 24, lastHeartbeat: start, timeZoneIdentifier: "Europe/London"))
        return (app, backend, messenger)
    }

    private func drive(_ backend: Backend, fromMinute: Int64, throughMinute: Int64) async throws {
        var minute = fromMinute - fromMinute % 2 + 2
        while minute <= throughMinute {
            let tick = start + .seconds(minute * 60)
            try await backend.env.clock.sleep(until: tick)
            if minute % 30 == 0 { try await backend.functions.runScheduled(SafeNSoundApp.checkMissedHeartbeatsName, at: tick, isDuplicate: false) }
            try await backend.functions.runScheduled(SafeNSoundApp.processScheduledAlertsName, at: tick, isDuplicate: false)
            minute += 2
        }
    }

    private func emailed(_ backend: Backend) -> [String] { backend.outbox.records.filter { $0.channel == .email }.map(\.recipient) }

    @Test("An edit after the check created the email alert: careful emails the new list")
    func editAfterCheck() async throws {
        for (variant, expected) in [(SafeNSoundVariant.careful, ["c@example.com", "b@example.com"]), (.contactsFixedAtCheck, ["a@example.com", "b@example.com"])] {
            let (app, backend, _) = try await deploy(variant)
            try await drive(backend, fromMinute: 0, throughMinute: 23 * 60 + 40)  // the 23:30 check created the 24 h email alert
            #expect(await app.alerts(of: "u1").contains { $0.kind == .emailAlert })
            try await app.setEmergencyContacts(userId: "u1", ["c@example.com", "b@example.com"])
            try await drive(backend, fromMinute: 23 * 60 + 40, throughMinute: 24 * 60 + 10)
            #expect(emailed(backend) == expected, "\(variant.rawValue)")
        }
    }

    @Test("An edit between two contacts' emails: the removed contact gets nothing more, the added one is emailed")
    func editMidSend() async throws {
        let (app, backend, messenger) = try await deploy(.careful)
        messenger.afterFirstEmail.withLock { $0 = { try? await app.setEmergencyContacts(userId: "u1", ["a@example.com", "d@example.com"]) } }
        try await drive(backend, fromMinute: 0, throughMinute: 24 * 60 + 10)
        #expect(emailed(backend) == ["a@example.com", "d@example.com"])
    }
}
