@testable import Domain
@testable import SimulatedFirebase
import Testing

/// An email alert to several contacts where SendGrid refuses one of them: the retry must email
/// only the contacts still missing (careful), while the literal unclaimed sender re-sends to all.
@Suite("SafeNSound partial delivery")
struct SafeNSoundPartialDeliveryTests {
    static let first = "contact1-u1@example.com"
    static let second = "contact2-u1@example.com"
    static let rateLimited = SafeNSoundError.deliveryFailed(recipient: second, reason: "SendGrid returned 429 Too Many Requests")

    /// Onboards u1 (two contacts) at hour 0 and runs the sender through hour 73 with `messenger`.
    private func runMissedWindow(variant: SafeNSoundVariant = .careful, messenger: ScriptedSafeNSoundMessenger) async throws -> SafeNSoundHarness {
        let h = SafeNSoundHarness(variant: variant, messenger: messenger)
        try await h.onboard("u1")
        await h.run(throughHours: 73)
        return h
    }

    @Test("A 429 for the second contact: the next run emails only the second contact")
    func retrySendsOnlyTheMissingContact() async throws {
        let messenger = ScriptedSafeNSoundMessenger(script: [Self.second: [Self.rateLimited]])
        let h = try await runMissedWindow(messenger: messenger)
        #expect(await messenger.received(Self.first) == 1)
        #expect(await messenger.received(Self.second) == 1)
        #expect(await messenger.attempts.filter { $0.contains("@") } == [Self.first, Self.second, Self.second])
        let email = try #require(await h.app.alerts().first { $0.kind == .emailAlert })
        #expect(email.status == .sent)
        #expect(email.deliveredTo == [Self.first, Self.second])
    }

    @Test("After the 429 the alert is scheduled again with the first contact recorded as delivered")
    func failedAttemptRecordsTheConfirmedContact() async throws {
        let messenger = ScriptedSafeNSoundMessenger(script: [Self.second: [Self.rateLimited]])
        let h = SafeNSoundHarness(messenger: messenger)
        try await h.onboard("u1")
        h.test.set(hours: 72)
        await h.app.checkMissedHeartbeats()
        let report = await h.app.processScheduledAlerts()
        #expect(report.failedAlertIds.count == 1)
        let email = try #require(await h.app.alerts().first { $0.kind == .emailAlert })
        #expect(email.status == .scheduled)
        #expect(email.deliveredTo == [Self.first])
    }

    @Test("Variant unclaimed-sender retries the alert whole: the first contact gets it twice")
    func unclaimedSenderResendsToEveryone() async throws {
        let messenger = ScriptedSafeNSoundMessenger(script: [Self.second: [Self.rateLimited]])
        _ = try await runMissedWindow(variant: .unclaimedSender, messenger: messenger)
        #expect(await messenger.received(Self.first) == 2)
        #expect(await messenger.received(Self.second) == 1)
    }

    @Test("A SendGrid time-out is at-least-once: that contact is emailed again, the other once")
    func timeOutIsRetried() async throws {
        let timedOut = SafeNSoundError.deliveryUnconfirmed(recipient: Self.first, reason: "SendGrid request timed out")
        let messenger = ScriptedSafeNSoundMessenger(script: [Self.first: [timedOut]])
        let h = try await runMissedWindow(messenger: messenger)
        #expect(await messenger.received(Self.first) == 2)
        #expect(await messenger.received(Self.second) == 1)
        #expect(try #require(await h.app.alerts().first { $0.kind == .emailAlert }).deliveredTo == [Self.first, Self.second])
    }

    @Test("On backend documents: deliveredTo is stored on scheduled_alerts and the retry skips the first contact")
    func firestoreStoreTracksRecipients() async throws {
        let backend = makeBackend()
        SafeNSoundApp.deployIndexes(on: backend)
        let messenger = ScriptedSafeNSoundMessenger(script: [Self.second: [Self.rateLimited]])
        let app = SafeNSoundApp(environment: backend.env, messenger: messenger, store: SafeNSoundFirestoreStore(firestore: backend.firestore))
        try await app.registerUser(SafeNSoundHarness.user("u1", at: backend.env.clock.now))
        let start = backend.env.clock.now
        try await backend.env.clock.sleep(until: start + .seconds(72 * 3600))
        await app.checkMissedHeartbeats()
        await app.processScheduledAlerts()
        let alertId = try #require(await app.alerts().first { $0.kind == .emailAlert }).alertId
        let stored = backend.firestore.liveFields(DocumentPath("scheduled_alerts", alertId))?["deliveredTo"]?.arrayValue?.compactMap(\.stringValue)
        #expect(stored == [Self.first])
        try await backend.env.clock.sleep(until: start + .seconds(72 * 3600 + 120))
        await app.processScheduledAlerts()
        #expect(await messenger.received(Self.first) == 1)
        #expect(await messenger.received(Self.second) == 1)
        #expect(try #require(await app.alerts().first { $0.kind == .emailAlert }).status == .sent)
    }
}
