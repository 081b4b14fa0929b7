@testable import Domain
@testable import SimulatedFirebase
import Synchronization
import Testing

/// § Error Handling, Email Send Failure: "Retry with exponential backoff; Log failure, mark alert
/// as failed; Optionally send to backup email service".
@Suite("SafeNSound email failure handling")
struct SafeNSoundEmailFailureTests {
    private static let minute: Int64 = 60_000_000_000
    private var start: Timestamp { Timestamp(unixNanoseconds: testEpochUnixNanoseconds) }

    /// Refuses every email before `until`, recording each attempt's time (minutes since the epoch).
    final class OutageMessenger: SafeNSoundMessenger {
        let inner: SafeNSoundBackendMessenger
        let until: Timestamp
        let clock: DomainClock
        let attempts = Mutex<[Int64]>([])
        init(backend: Backend, until: Timestamp) {
            inner = SafeNSoundBackendMessenger(backend: backend)
            self.until = until
            clock = backend.env.clock
        }
        func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
            if message.channel == .email {
                let now = clock.now
                attempts.withLock { $0.append((now.unixNanoseconds - testEpochUnixNanoseconds) / SafeNSoundEmailFailureTests.minute) }
                if now < until { throw .deliveryFailed(recipient: message.recipient, reason: "SendGrid 503 (outage)") }
            }
            try await inner.deliver(message)
        }
    }

    /// A 72 h user whose email falls due at hour 72 while SendGrid is down until 72:40.
    private func run(_ variant: SafeNSoundVariant, maxDelayMinutes: Int64) async throws -> (SafeNSoundApp, Backend, [Int64]) {
        let backend = makeBackend()
        let messenger = OutageMessenger(backend: backend, until: start + .seconds((72 * 60 + 40) * 60))
        let app = SafeNSoundApp.deployed(
            on: backend, configuration: SafeNSoundConfiguration(alertRetryMaxDelay: .seconds(maxDelayMinutes * 60), variant: variant), messenger: messenger)
        try await app.registerUser(SafeNSoundUser(
            userId: "u1", name: "Ana", fcmToken: "tok-u1", emergencyContactEmails: ["sam@example.com"],
            checkInThresholdHours: 72, lastHeartbeat: start, timeZoneIdentifier: "America/Los_Angeles"))
        var minute: Int64 = 2
        while minute <= 74 * 60 {
            let tick = start + .seconds(minute * 60)
            try await backend.env.clock.sleep(until: tick)
            if minute % 30 == 0 { try await backend.functions.runScheduled(SafeNSoundApp.checkMissedHeartbeatsName, at: tick, isDuplicate: false) }
            try await backend.functions.runScheduled(SafeNSoundApp.processScheduledAlertsName, at: tick, isDuplicate: false)
            minute += 2
        }
        return (app, backend, messenger.attempts.withLock { $0 })
    }

    @Test("Careful: retries back off exponentially (2, 4, 8, 16, 16 min) and the email goes out after the outage")
    func backoffThenDelivered() async throws {
        let (app, backend, attempts) = try await run(.careful, maxDelayMinutes: 16)
        let hour72: Int64 = 72 * 60
        #expect(attempts.map { $0 - hour72 } == [0, 2, 4, 10, 24, 38, 52])
        #expect(backend.outbox.records.filter { $0.channel == .email }.map(\.recipient) == ["sam@example.com"])
        let email = try #require(await app.alerts(of: "u1").first { $0.kind == .emailAlert })
        #expect(email.status == .sent)
        #expect(email.failedAttempts == 6)
    }

    @Test("The default configuration keeps the fixed 2-minute retry")
    func defaultIsFixedRetry() async throws {
        let (_, _, attempts) = try await run(.careful, maxDelayMinutes: 2)
        #expect(attempts.map { $0 - 72 * 60 } == Array(stride(from: Int64(0), through: 40, by: 2)))
    }

    @Test("email-failure-marks-failed: after three failures the alert is failed and the contact never emailed")
    func literalMarksFailed() async throws {
        let (app, backend, attempts) = try await run(.emailFailureMarksFailed, maxDelayMinutes: 16)
        #expect(attempts.count == 3)
        #expect(backend.outbox.records.filter { $0.channel == .email }.isEmpty)
        #expect(await app.alerts(of: "u1").first { $0.kind == .emailAlert }?.status == .failed)
    }
}
