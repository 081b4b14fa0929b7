import Domain
import SimulatedFirebase
import Testing

/// SendGrid's rate (docs/domain.md, "SendGrid's rate"; MODEL_RULES §33): an account's requests per
/// refresh period, shared with the other senders on the account; past it a send answers 429, sends
/// nothing, and `retryAfter()` says when the period resets.
@Suite struct ConformanceSendGridRateTests {
    static func backend(limit: Int, elsewhere: Double) -> Backend {
        var faults = BackendFaults.none
        faults.emailRequestsPerPeriod = limit
        faults.emailRatePeriod = .seconds(60)
        faults.emailQuotaUsedElsewhere = elsewhere
        return makeBackend(seed: 94, faults: faults)
    }

    static func send(_ backend: Backend, _ index: Int) async -> String? {
        let email = EmailMessage(to: ["c\(index)@example.com"], from: "f@example.com", subject: "s\(index)", type: "T", body: "b")
        return await backendError { try await backend.email.send(email) }?.code
    }

    @Test func theAccountsRateAnswers429UntilThePeriodResets() async {
        let backend = Self.backend(limit: 3, elsewhere: 0)
        for index in 0..<3 {
            #expect(await Self.send(backend, index) == nil)
            #expect(backend.email.retryAfter() == .zero || index == 2, "requests left: no wait")
        }
        #expect(await Self.send(backend, 3) == "RESOURCE_EXHAUSTED")
        #expect(backend.outbox.records.count == 3, "a 429 sends nothing")
        #expect(backend.faultLedger.tallies[.emailQuotaExceeded]?.observed == 1)
        let reset = backend.email.retryAfter()
        #expect(reset > .zero && reset <= .seconds(60))
        try? await backend.env.clock.sleep(for: reset - .seconds(1))
        #expect(await Self.send(backend, 4) == "RESOURCE_EXHAUSTED", "a second before the reset the period is still spent")
        try? await backend.env.clock.sleep(for: .seconds(1))
        #expect(backend.email.retryAfter() == .zero)
        #expect(await Self.send(backend, 5) == nil, "the next period admits it")
        #expect(backend.outbox.records.count == 4 && backend.faultLedger.tallies[.emailQuotaExceeded]?.observed == 2)
    }

    @Test func otherSendersSpendTheirShareOverThePeriod() async {
        let backend = Self.backend(limit: 100, elsewhere: 0.5)
        // Halfway through a period: the others have spent 25 of 100.
        let intoPeriod = backend.env.clock.elapsedNanoseconds % 60_000_000_000
        try? await backend.env.clock.sleep(for: .nanoseconds(60_000_000_000 - intoPeriod) + .seconds(30))
        var admitted = 0
        for index in 0..<80 where await Self.send(backend, index) == nil { admitted += 1 }
        #expect(admitted == 75, "half the period gone: the others spent a quarter of the limit")
        // A kinder SendGrid (no other senders) admits the whole limit.
        let alone = Self.backend(limit: 100, elsewhere: 0)
        var all = 0
        for index in 0..<101 where await Self.send(alone, index) == nil { all += 1 }
        #expect(all == 100)
    }

    @Test func fcmExpiresTheTokensOfDevicesLongUnused() async throws {
        var faults = BackendFaults.none
        faults.fcmTokenExpiryProbability = 1
        let backend = makeBackend(seed: 95, faults: faults)
        #expect(backend.messaging.expiredForInactivity("old"))
        let message = PushMessage(recipient: "u", type: "T", title: "t", body: "b")
        #expect(try await backend.messaging.sendEachForMulticast(tokens: ["old", "fresh"], message: message) == [.unregistered, .success])
        #expect(backend.faultLedger.tallies[.fcmTokenExpired]?.observed == 1)
        let kept = makeBackend(seed: 95, faults: .none)
        #expect(!kept.messaging.expiredForInactivity("old"))
        #expect(try await kept.messaging.sendEachForMulticast(tokens: ["old"], message: message) == [.success])
    }
}
