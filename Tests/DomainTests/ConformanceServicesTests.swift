import Domain
import SimulatedFirebase
import Testing

/// Backend conformance, client network, FCM and SendGrid (docs/domain.md "Conformance suite";
/// MODEL_RULES §16–17): failure shares at the configured rates, with and without effect as
/// documented. Each request draws its failure and its time-out independently; a failed request
/// never reaches the time-out, so the time-out share is p_timeout × (1 − p_failure) (and for
/// SendGrid p_timeout × (1 − p_429)).
@Suite struct ConformanceServicesTests {
    /// `requests` client writes to fresh documents; classifies each by error and effect.
    static func network(seed: UInt64, failure: Double, timeout: Double, requests: Int) async throws
        -> (unavailable: Int, unavailableApplied: Int, deadline: Int, deadlineApplied: Int, other: Int)
    {
        var faults = BackendFaults.none
        faults.networkFailureProbability = failure
        faults.networkTimeoutProbability = timeout
        let backend = makeBackend(seed: seed, faults: faults)
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        var result = (unavailable: 0, unavailableApplied: 0, deadline: 0, deadlineApplied: 0, other: 0)
        for index in 0..<requests {
            let path = DocumentPath("writes", "w\(index)")
            let error = await backendError { try await client.setData(path, ["n": 1]) }
            let applied = await backend.firestore.snapshot(path).exists
            switch error?.code {
            case nil: if !applied { result.other += 1 }
            case "UNAVAILABLE": result.unavailable += 1; if applied { result.unavailableApplied += 1 }
            case "DEADLINE_EXCEEDED": result.deadline += 1; if applied { result.deadlineApplied += 1 }
            default: result.other += 1
            }
        }
        return result
    }

    /// 20,000 writes at the defaults (1 % / 0.2 %): UNAVAILABLE band [144, 256], never applied;
    /// DEADLINE_EXCEEDED at 0.198 % band [14, 64], always applied. 4,000 at 5 % / 5 % as well.
    @Test(arguments: [(0.01, 0.002, 20_000), (0.05, 0.05, 4_000)])
    func networkFailuresAndTimeoutsHappenAtTheirRates(failure: Double, timeout: Double, requests: Int) async throws {
        let measured = try await Self.network(seed: 91, failure: failure, timeout: timeout, requests: requests)
        #expect(measured.other == 0)
        #expect(BinomialBound.contains(observed: measured.unavailable, trials: requests, probability: failure),
                "\(measured.unavailable) UNAVAILABLE, want \(BinomialBound.band(trials: requests, probability: failure))")
        #expect(measured.unavailableApplied == 0, "UNAVAILABLE has no effect")
        let timedOut = timeout * (1 - failure)
        #expect(BinomialBound.isApproximationSound(trials: requests, probability: timedOut))
        #expect(BinomialBound.contains(observed: measured.deadline, trials: requests, probability: timedOut),
                "\(measured.deadline) DEADLINE_EXCEEDED, want \(BinomialBound.band(trials: requests, probability: timedOut))")
        #expect(measured.deadlineApplied == measured.deadline, "DEADLINE_EXCEEDED still applied the write")
    }

    /// 40 calls of 500 tokens: per-token transient failures at 1 % (20,000 tokens, band [144, 256]),
    /// reported per token and never thrown; every success is in the outbox. 500 is the most one call
    /// takes: 501 is refused with INVALID_ARGUMENT asking to split the list (nothing sent).
    @Test func fcmCapsTokensAndFailsPerTokenAtItsRate() async throws {
        var faults = BackendFaults.none
        faults.fcmTokenFailureProbability = BackendFaults.default.fcmTokenFailureProbability
        let backend = makeBackend(seed: 92, faults: faults)
        let message = PushMessage(recipient: "u", type: "T", title: "t", body: "b")
        let cap = faults.fcmMaxTokensPerCall
        let tooMany = await backendError {
            _ = try await backend.messaging.sendEachForMulticast(tokens: (0...cap).map { "x\($0)" }, message: message)
        }
        #expect(tooMany?.code == "INVALID_ARGUMENT" && tooMany?.description.contains("split") == true)
        #expect(backend.outbox.records.isEmpty)
        var failures = 0, successes = 0
        let calls = 40
        for call in 0..<calls {
            let outcomes = try await backend.messaging.sendEachForMulticast(tokens: (0..<cap).map { "t\(call)-\($0)" }, message: message)
            #expect(outcomes.count == cap)
            failures += outcomes.filter { $0 == .transientFailure }.count
            successes += outcomes.filter { $0 == .success }.count
        }
        let tokens = calls * cap, p = faults.fcmTokenFailureProbability
        #expect(failures + successes == tokens)
        #expect(BinomialBound.contains(observed: failures, trials: tokens, probability: p),
                "\(failures) failed tokens, want \(BinomialBound.band(trials: tokens, probability: p))")
        #expect(backend.outbox.records.count == successes)
    }

    /// 20,000 emails at the defaults: 429 at 1 % (band [144, 256]) with nothing sent; time-outs at
    /// 0.5 % × 0.99 (band [59, 139]) with the email sent; a kinder SendGrid (429 off) fails.
    @Test func sendGridRateLimitsAndTimeoutsHappenAtTheirRates() async throws {
        func measure(rateLimit: Double) async -> (limited: Int, timedOut: Int, sent: Int) {
            var faults = BackendFaults.none
            faults.emailRateLimitProbability = rateLimit
            faults.emailTimeoutProbability = BackendFaults.default.emailTimeoutProbability
            let backend = makeBackend(seed: 93, faults: faults)
            var limited = 0, timedOut = 0, expectedSent = 0
            for index in 0..<20_000 {
                let email = EmailMessage(to: ["c\(index)@example.com"], from: "f@example.com", subject: "s", type: "T", body: "b")
                let before = backend.outbox.records.count
                switch await backendError({ try await backend.email.send(email) })?.code {
                case nil: expectedSent += 1
                case "RESOURCE_EXHAUSTED": limited += 1
                    #expect(backend.outbox.records.count == before, "a 429 sends nothing")
                case "DEADLINE_EXCEEDED": timedOut += 1; expectedSent += 1
                    #expect(backend.outbox.records.count == before + 1, "a time-out has already sent")
                case let other: Issue.record("unexpected \(String(describing: other))")
                }
            }
            #expect(backend.outbox.records.count == expectedSent)
            return (limited, timedOut, expectedSent)
        }
        let defaults = BackendFaults.default
        let measured = await measure(rateLimit: defaults.emailRateLimitProbability)
        #expect(BinomialBound.contains(observed: measured.limited, trials: 20_000, probability: defaults.emailRateLimitProbability),
                "\(measured.limited) 429s, want \(BinomialBound.band(trials: 20_000, probability: defaults.emailRateLimitProbability))")
        let timedOut = defaults.emailTimeoutProbability * (1 - defaults.emailRateLimitProbability)
        #expect(BinomialBound.contains(observed: measured.timedOut, trials: 20_000, probability: timedOut),
                "\(measured.timedOut) time-outs, want \(BinomialBound.band(trials: 20_000, probability: timedOut))")
        let kinder = await measure(rateLimit: 0)
        #expect(!BinomialBound.contains(observed: kinder.limited, trials: 20_000, probability: defaults.emailRateLimitProbability))
    }
}
