@testable import Domain
@testable import SimulatedFirebase
import Testing

@Suite("SafeNSound on the backend")
struct SafeNSoundBackendTests {
    /// Hour 0 of these tests is the backend test epoch, 2026-01-01T00:00Z (Dec 31, 2025, 4:00 PM PST).
    private func deploy(faults: BackendFaults = .none) async throws -> (SafeNSoundApp, Backend) {
        let backend = makeBackend(faults: faults)
        let app = SafeNSoundApp.deployed(on: backend)
        try await app.registerUser(SafeNSoundUser(
            userId: "u1", name: "Ana", fcmToken: "tok-u1", emergencyContactEmails: ["sam@example.com"],
            checkInThresholdHours: 72, lastHeartbeat: backend.env.clock.now, timeZoneIdentifier: "America/Los_Angeles"))
        return (app, backend)
    }

    /// Runs both scheduled functions at every tick up to `hours`, each tick `copies` times at once
    /// (a duplicate tick or an overlapping retry).
    private func drive(_ backend: Backend, throughHours hours: Int, copies: Int = 1) async throws {
        let start = Timestamp(unixNanoseconds: testEpochUnixNanoseconds)
        var minute = 2
        while minute <= hours * 60 {
            let tick = start + .seconds(minute * 60)
            try await backend.env.clock.sleep(until: tick)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for copy in 0..<copies {
                    if minute % 30 == 0 {
                        group.addTask { try await backend.functions.runScheduled(SafeNSoundApp.checkMissedHeartbeatsName, at: tick, isDuplicate: copy > 0) }
                    }
                }
                try await group.waitForAll()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for copy in 0..<copies {
                    group.addTask { try await backend.functions.runScheduled(SafeNSoundApp.processScheduledAlertsName, at: tick, isDuplicate: copy > 0) }
                }
                try await group.waitForAll()
            }
            minute += 2
        }
    }

    @Test("recordHeartbeat callable uses the caller's uid and rejects signed-out callers")
    func callable() async throws {
        let (app, backend) = try await deploy()
        try await backend.env.clock.sleep(for: .seconds(120))
        let result = try await backend.client(auth: AuthContext(uid: "u1"), label: "u1").call(
            SafeNSoundApp.recordHeartbeatName, ["timezone": "Europe/London", "deviceInfo": ["model": "iPhone"]])
        #expect(result.mapValue?["success"] == .bool(true))
        #expect(await app.user("u1")?.timeZoneIdentifier == "Europe/London")
        await #expect(throws: BackendError.unauthenticated("recordHeartbeat requires a signed-in user")) {
            _ = try await backend.client(auth: nil, label: "anon").call(SafeNSoundApp.recordHeartbeatName, ["timezone": "UTC"])
        }
        await #expect(throws: SafeNSoundError.rateLimited(userId: "u1", retryAfterSeconds: 60)) {
            _ = try await backend.client(auth: AuthContext(uid: "u1"), label: "u1").call(SafeNSoundApp.recordHeartbeatName, ["timezone": "UTC"])
        }
    }

    @Test("72-hour timeline through Cloud Functions, FCM and SendGrid, with every tick run twice at once")
    func timelineThroughBackend() async throws {
        let (_, backend) = try await deploy()
        try await drive(backend, throughHours: 73, copies: 2)
        let records = backend.outbox.records
        #expect(records.map(\.channel) == [.push, .email])
        let push = try #require(records.first)
        let pushOffset = push.sentAt.unixNanoseconds - testEpochUnixNanoseconds
        #expect(pushOffset >= 69 * 3_600_000_000_000 && pushOffset < 69 * 3_600_000_000_000 + 120_000_000_000)  // claim contention adds backoff
        #expect(push.recipient == "u1")
        #expect(push.token == "tok-u1")
        let email = try #require(records.last)
        #expect(email.sentAt.unixNanoseconds - testEpochUnixNanoseconds >= 72 * 3_600_000_000_000)
        #expect(email.recipient == "sam@example.com")
        #expect(email.payload["body"] == "Ana hasn't checked in for 72 hours. Last check-in: Dec 31, 2025 at 4:00 PM PST.")
    }

    @Test("A SendGrid 429 leaves the alert scheduled; the next run sends it")
    func emailRateLimitIsRetried() async throws {
        var faults = BackendFaults.none
        faults.emailRateLimitProbability = 1
        let (app, backend) = try await deploy(faults: faults)
        try await backend.env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(72 * 3600))
        await app.checkMissedHeartbeats()
        let report = await app.processScheduledAlerts()
        #expect(report.failedAlertIds.count == 1)
        #expect(await app.alerts().last?.status == .scheduled)
        #expect(backend.outbox.records.filter { $0.channel == .email }.isEmpty)
    }

    @Test("State lives in backend documents: users, heartbeats, scheduled_alerts with deterministic ids")
    func documents() async throws {
        let (_, backend) = try await deploy()
        try await backend.env.clock.sleep(for: .seconds(60))
        _ = try await backend.client(auth: AuthContext(uid: "u1"), label: "u1").call(SafeNSoundApp.recordHeartbeatName, ["timezone": "America/Los_Angeles"])
        let heartbeat = backend.env.clock.now
        try await drive(backend, throughHours: 74)
        #expect(backend.firestore.query("heartbeats").count == 1)
        #expect(await backend.firestore.get(DocumentPath("users", "u1"))["heartbeatCount"] == .int(1))
        let alerts = backend.firestore.query("scheduled_alerts")
        #expect(alerts.map(\.id) == [
            SafeNSoundScheduledAlert.deterministicId(userId: "u1", windowLastHeartbeat: heartbeat, kind: .emailAlert),
            SafeNSoundScheduledAlert.deterministicId(userId: "u1", windowLastHeartbeat: heartbeat, kind: .preNotification),
        ])
        #expect(alerts.allSatisfy { $0["status"] == .string("sent") })
    }

    @Test("Two concurrent heartbeats on documents: exactly one passes (server transaction)")
    func rateLimitOnDocuments() async throws {
        for (variant, expectedPasses) in [(SafeNSoundVariant.careful, 1), (.readThenWriteRateLimit, 2)] {
            let backend = makeBackend()
            SafeNSoundApp.deployIndexes(on: backend)
            let barrier = AppsTestBarrier(count: 2)
            let app = SafeNSoundApp(
                environment: backend.env, configuration: SafeNSoundConfiguration(variant: variant),
                messenger: SafeNSoundBackendMessenger(backend: backend), store: SafeNSoundFirestoreStore(firestore: backend.firestore),
                probe: SafeNSoundProbe(betweenRateLimitReadAndWrite: { _ in await barrier.arrive() }))
            try await app.registerUser(SafeNSoundHarness.user("u1", at: backend.env.clock.now))
            let request = SafeNSoundHeartbeatRequest(timeZoneIdentifier: "America/Los_Angeles")
            async let a: Bool = (try? await app.recordHeartbeat(authenticatedUserId: "u1", request: request)) != nil
            async let b: Bool = (try? await app.recordHeartbeat(authenticatedUserId: "u1", request: request)) != nil
            #expect([await a, await b].filter { $0 }.count == expectedPasses, "variant \(variant.rawValue)")
        }
    }

    @Test("Overlapping sender runs on documents send each alert once")
    func overlappingSendersOnDocuments() async throws {
        let (app, backend) = try await deploy()
        try await backend.env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(72 * 3600))
        await app.checkMissedHeartbeats()
        async let first = app.processScheduledAlerts()
        async let second = app.processScheduledAlerts()
        let reports = await [first, second]
        #expect(reports.flatMap(\.sentAlertIds).count == 1)
        #expect(backend.outbox.records.filter { $0.channel == .email }.count == 1)
    }
}
