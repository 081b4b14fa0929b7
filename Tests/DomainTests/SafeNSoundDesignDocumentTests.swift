@testable import Domain
@testable import SimulatedFirebase
import Testing

/// Function instances are stateless and the threshold a user picks is the one the alert speaks
/// of (docs/domain.md, SafeNSound): pinned inputs.
@Suite("SafeNSound against its design document")
struct SafeNSoundDesignDocumentTests {
    private static func user(_ id: String, thresholdHours: Int, at lastHeartbeat: Timestamp) -> SafeNSoundUser {
        SafeNSoundUser(
            userId: id, name: "Ana \(id)", fcmToken: "token-\(id)", emergencyContactEmails: ["sam-\(id)@example.com"],
            checkInThresholdHours: thresholdHours, lastHeartbeat: lastHeartbeat, timeZoneIdentifier: "America/Los_Angeles")
    }

    @Test("A fresh function instance over the same Firestore documents creates the due alerts")
    func freshInstanceOverFirestoreCreatesAlerts() async throws {
        let backend = makeBackend()
        SafeNSoundApp.deployIndexes(on: backend)
        let env = backend.env
        let onboarding = SafeNSoundApp(
            environment: env, messenger: SafeNSoundOutbox(environment: env), store: SafeNSoundFirestoreStore(firestore: backend.firestore))
        try await onboarding.registerUser(Self.user("u1", thresholdHours: 24, at: env.clock.now))
        let outbox = SafeNSoundOutbox(environment: env)
        let fresh = SafeNSoundApp(
            environment: env, messenger: outbox, store: SafeNSoundFirestoreStore(firestore: backend.firestore))
        try await env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(21 * 3600 - 1800))
        let report = await fresh.checkMissedHeartbeats()
        #expect(report.createdAlertIds.count == 1)
        try await env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(21 * 3600))
        await fresh.processScheduledAlerts()
        try await env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(24 * 3600 - 1800))
        #expect(await fresh.checkMissedHeartbeats().createdAlertIds.count == 1)
        // The onboarding instance sees the same work as done: nothing new.
        #expect(await onboarding.checkMissedHeartbeats().createdAlertIds.isEmpty)
        try await env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(24 * 3600))
        await fresh.processScheduledAlerts()
        #expect(await outbox.messages().map(\.channel) == [.push, .email])
    }

    @Test("Two apps over one actor store share the due work")
    func twoAppsOverOneActorStore() async throws {
        let test = AppsTestEnvironment()
        let store = SafeNSoundActorStore(environment: test.environment)
        let outbox = SafeNSoundOutbox(environment: test.environment)
        let first = SafeNSoundApp(environment: test.environment, messenger: outbox, store: store)
        let second = SafeNSoundApp(environment: test.environment, messenger: outbox, store: store)
        try await first.registerUser(Self.user("u1", thresholdHours: 24, at: test.now))
        test.set(hours: 20.5)
        #expect(await second.checkMissedHeartbeats().createdAlertIds.count == 1)
        test.set(hours: 23.5)
        #expect(await first.checkMissedHeartbeats().createdAlertIds.count == 1, "the email alert, by the other app")
    }

    @Test("Raising 24 → 72 h within 30 min of the due email: no 24 h email, the 72 h email goes out at 72 h")
    func raisingTheThresholdMovesTheAlert() async throws {
        for firestore in [false, true] {
            let test = AppsTestEnvironment()
            let outbox = SafeNSoundOutbox(environment: test.environment)
            let backend = Backend(env: test.environment, faults: .none)
            SafeNSoundApp.deployIndexes(on: backend)
            let store: (any SafeNSoundStore)? = firestore ? SafeNSoundFirestoreStore(firestore: backend.firestore) : nil
            let app = SafeNSoundApp(environment: test.environment, messenger: outbox, store: store)
            try await app.registerUser(Self.user("u1", thresholdHours: 24, at: test.now))
            var minute = 2
            while minute <= 73 * 60 {
                test.clock.advance(to: .seconds(Int64(minute) * 60))
                if minute == 23 * 60 + 40 { try await app.setCheckInThreshold(userId: "u1", hours: 72) }
                if minute % 30 == 0 { await app.checkMissedHeartbeats() }
                await app.processScheduledAlerts()
                minute += 2
            }
            let emails = await outbox.messages().filter { $0.channel == .email }
            let hours = emails.map { Double($0.sentAt.unixSeconds - 1_768_284_000) / 3600 }
            #expect(hours == [72], "firestore store: \(firestore)")
            #expect(emails.map(\.subject) == ["Ana u1 hasn't checked in for 72 hours"], "firestore store: \(firestore)")
        }
    }

    @Test("Lowering 72 → 24 h after 30 h: the email goes out at the next sender run, not at 72 h")
    func loweringTheThresholdPullsTheAlertIn() async throws {
        let test = AppsTestEnvironment()
        let outbox = SafeNSoundOutbox(environment: test.environment)
        let app = SafeNSoundApp(environment: test.environment, messenger: outbox)
        try await app.registerUser(Self.user("u1", thresholdHours: 72, at: test.now))
        var minute = 2
        while minute <= 73 * 60 {
            test.clock.advance(to: .seconds(Int64(minute) * 60))
            if minute == 30 * 60 + 10 { try await app.setCheckInThreshold(userId: "u1", hours: 24) }
            if minute % 30 == 0 { await app.checkMissedHeartbeats() }
            await app.processScheduledAlerts()
            minute += 2
        }
        let emails = await outbox.messages().filter { $0.channel == .email }
        #expect(emails.map { Double($0.sentAt.unixSeconds - 1_768_284_000) / 3600 } == [30.5])
        #expect(emails.map(\.subject) == ["Ana u1 hasn't checked in for 24 hours"])
    }
}
