@testable import Domain
@testable import SimulatedFirebase
import Testing

/// A reinstall signs in with a new anonymous uid and onboards again with the person's email.
@Suite("SafeNSound reinstall")
struct SafeNSoundReinstallTests {
    private func person(_ uid: String, lastHeartbeat: Timestamp, email: String? = "ana@example.com") -> SafeNSoundUser {
        SafeNSoundUser(
            userId: uid, name: "Ana", fcmToken: "tok-\(uid)", emergencyContactEmails: ["sam@example.com"],
            checkInThresholdHours: 24, lastHeartbeat: lastHeartbeat, timeZoneIdentifier: "Europe/London", email: email)
    }

    private func run(_ variant: SafeNSoundVariant, email: String? = "ana@example.com") async throws -> (SafeNSoundApp, Backend) {
        let backend = makeBackend()
        let app = SafeNSoundApp.deployed(on: backend, configuration: SafeNSoundConfiguration(variant: variant))
        let start = backend.env.clock.now
        try await app.registerUser(person("old", lastHeartbeat: start, email: email))
        try await backend.env.clock.sleep(until: start + .seconds(10 * 3600))
        try await app.registerUser(person("new", lastHeartbeat: backend.env.clock.now, email: email))
        var minute = 602
        while minute <= 30 * 60 {
            let tick = start + .seconds(Int64(minute) * 60)
            try await backend.env.clock.sleep(until: tick)
            if minute % 30 == 0 { try await backend.functions.runScheduled(SafeNSoundApp.checkMissedHeartbeatsName, at: tick, isDuplicate: false) }
            try await backend.functions.runScheduled(SafeNSoundApp.processScheduledAlertsName, at: tick, isDuplicate: false)
            minute += 2
        }
        return (app, backend)
    }

    @Test("Careful: onboarding with the same email retires the old account, which alerts nobody")
    func carefulRetiresTheOldAccount() async throws {
        let (app, backend) = try await run(.careful)
        let old = try #require(await app.user("old"))
        #expect(!old.isActive)
        #expect(old.supersededBy == "new")
        #expect(await app.user("new")?.isActive == true)
        // The new account (onboarded at hour 10) is not due before hour 34; the old one would have been at 24.
        #expect(backend.outbox.records.isEmpty)
    }

    @Test("reinstall-orphans-account: the old account stays active and emails the contact at its threshold")
    func literalDesignOrphans() async throws {
        let (app, backend) = try await run(.reinstallOrphansAccount)
        #expect(await app.user("old")?.isActive == true)
        let email = try #require(backend.outbox.records.first { $0.channel == .email })
        #expect(email.recipient == "sam@example.com")
        #expect(email.sentAt.unixNanoseconds - testEpochUnixNanoseconds >= 24 * 3_600_000_000_000)
    }

    @Test("Without an email nothing links the accounts (careful retires only by email)")
    func noEmailNoLink() async throws {
        let (app, _) = try await run(.careful, email: nil)
        #expect(await app.user("old")?.isActive == true)
    }
}
