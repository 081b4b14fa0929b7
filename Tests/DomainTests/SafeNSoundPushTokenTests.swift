@testable import Domain
@testable import SimulatedFirebase
import Synchronization
import Testing

/// Push-token lifecycle (§ Error Handling, Invalid FCM Token): FCM answers UNREGISTERED, the app
/// registers a new token on its next launch, and a registration can race a send.
@Suite("SafeNSound push tokens")
struct SafeNSoundPushTokenTests {
    private static let hour: Int64 = 3_600_000_000_000
    private var start: Timestamp { Timestamp(unixNanoseconds: testEpochUnixNanoseconds) }

    /// Forwards to the backend messenger; before the first push it runs `beforeFirstPush` (a
    /// registration landing after the sender read the user, before FCM answered).
    final class RacingMessenger: SafeNSoundMessenger {
        let inner: SafeNSoundBackendMessenger
        let beforeFirstPush = Mutex<(@Sendable () async -> Void)?>(nil)
        init(backend: Backend) { inner = SafeNSoundBackendMessenger(backend: backend) }
        func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
            if message.channel == .push, let hook = beforeFirstPush.withLock({ hook in defer { hook = nil }; return hook }) { await hook() }
            try await inner.deliver(message)
        }
    }

    private func deploy(_ variant: SafeNSoundVariant = .careful, messenger: (Backend) -> (any SafeNSoundMessenger)? = { _ in nil }) async throws -> (SafeNSoundApp, Backend) {
        let backend = makeBackend()
        let app = SafeNSoundApp.deployed(on: backend, configuration: SafeNSoundConfiguration(variant: variant), messenger: messenger(backend))
        try await app.registerUser(SafeNSoundUser(
            userId: "u1", name: "Ana", fcmToken: "tok-u1", emergencyContactEmails: ["sam@example.com"],
            checkInThresholdHours: 72, lastHeartbeat: backend.env.clock.now, timeZoneIdentifier: "America/Los_Angeles"))
        return (app, backend)
    }

    /// Runs both scheduled functions at every 2-minute tick after `fromMinute` through `throughMinute`.
    private func drive(_ backend: Backend, fromMinute: Int = 0, throughMinute: Int) async throws {
        var minute = fromMinute - fromMinute % 2 + 2
        while minute <= throughMinute {
            let tick = start + .seconds(Int64(minute) * 60)
            try await backend.env.clock.sleep(until: tick)
            if minute % 30 == 0 { try await backend.functions.runScheduled(SafeNSoundApp.checkMissedHeartbeatsName, at: tick, isDuplicate: false) }
            try await backend.functions.runScheduled(SafeNSoundApp.processScheduledAlertsName, at: tick, isDuplicate: false)
            minute += 2
        }
    }

    @Test("An invalid token keeps monitoring on: the token is cleared, the push waits, the contacts are still emailed")
    func invalidTokenKeepsMonitoring() async throws {
        let (app, backend) = try await deploy()
        backend.messaging.unregister(token: "tok-u1")
        try await drive(backend, throughMinute: 73 * 60)
        #expect(backend.outbox.records.map(\.channel) == [.email])
        let user = try #require(await app.user("u1"))
        #expect(user.isActive)
        #expect(user.fcmToken == "")
        let push = try #require(await app.alerts(of: "u1").first { $0.kind == .preNotification })
        #expect(push.status == .cancelled)  // parked at the email due time, then too late
    }

    @Test("A token registered after FCM rejected the old one receives the parked pre-notification")
    func reregisteredTokenGetsParkedPush() async throws {
        let (app, backend) = try await deploy()
        backend.messaging.unregister(token: "tok-u1")
        try await drive(backend, throughMinute: 70 * 60)
        #expect(backend.outbox.records.isEmpty)
        try await app.registerPushToken(userId: "u1", token: "tok-u1-b")
        try await drive(backend, fromMinute: 70 * 60, throughMinute: 73 * 60)
        let records = backend.outbox.records
        #expect(records.map(\.channel) == [.push, .email])
        let push = try #require(records.first)
        #expect(push.token == "tok-u1-b")
        let offset = push.sentAt.unixNanoseconds - testEpochUnixNanoseconds
        #expect(offset >= 70 * Self.hour && offset <= 70 * Self.hour + 4 * 60_000_000_000)
        #expect(await app.user("u1")?.fcmToken == "tok-u1-b")
    }

    @Test("A registration racing the failed push keeps the new token, and the push is retried to it")
    func registrationRacingTheSend() async throws {
        let racing = Mutex<RacingMessenger?>(nil)
        let (app, backend) = try await deploy { backend in
            let messenger = RacingMessenger(backend: backend)
            racing.withLock { $0 = messenger }
            return messenger
        }
        let messenger = try #require(racing.withLock { $0 })
        messenger.beforeFirstPush.withLock { $0 = { try? await app.registerPushToken(userId: "u1", token: "tok-u1-b") } }
        backend.messaging.unregister(token: "tok-u1")
        try await drive(backend, throughMinute: 73 * 60)
        let user = try #require(await app.user("u1"))
        #expect(user.fcmToken == "tok-u1-b")
        #expect(user.isActive)
        #expect(backend.outbox.records.map(\.channel) == [.push, .email])
        #expect(backend.outbox.records.first?.token == "tok-u1-b")
    }

    @Test("invalid-token-deactivates: the literal design turns monitoring off, and re-registering does not turn it on")
    func literalDesignDeactivates() async throws {
        let (app, backend) = try await deploy(.invalidTokenDeactivates)
        backend.messaging.unregister(token: "tok-u1")
        try await drive(backend, throughMinute: 70 * 60)
        try await app.registerPushToken(userId: "u1", token: "tok-u1-b")
        try await drive(backend, fromMinute: 70 * 60, throughMinute: 73 * 60)
        #expect(backend.outbox.records.isEmpty)  // no push, and no email to the contact
        let user = try #require(await app.user("u1"))
        #expect(!user.isActive)
        #expect(user.fcmToken == "tok-u1-b")
    }

    @Test("registerPushToken refuses an empty token")
    func emptyTokenRefused() async throws {
        let (app, _) = try await deploy()
        await #expect(throws: SafeNSoundError.pushTokenInvalid(token: "")) { try await app.registerPushToken(userId: "u1", token: "") }
    }
}
