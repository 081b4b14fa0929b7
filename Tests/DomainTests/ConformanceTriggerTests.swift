import Domain
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, triggers (docs/domain.md "Conformance suite"; MODEL_RULES §9–12 as
/// carried into docs/domain.md "Fault knobs"): duplicates, reordering and delay happen at the
/// documented rates, measured from the handler's side over thousands of writes at fixed seeds.
@Suite struct ConformanceTriggerTests {
    // MARK: Duplicates

    /// Writes `writes` documents once each and counts, per committed write, how often the handler ran.
    static func duplicates(seed: UInt64, probability: Double, shareEventId: Bool = true, writes: Int) async throws
        -> (duplicated: Int, perWrite: [(write: String, invocations: [Invocation])])
    {
        var faults = BackendFaults.none
        faults.triggerDuplicateProbability = probability
        faults.duplicatesShareEventId = shareEventId
        let backend = makeBackend(seed: seed, faults: faults)
        let log = InvocationLog()
        backend.functions.onWrite("items", kinds: Set(TriggerKind.allCases), name: "count") { event in
            log.record(event, now: backend.env.clock.now)
        }
        for index in 0..<writes {
            try await backend.firestore.set(DocumentPath("items", "i\(index)"), ["n": .int(Int64(index))])
        }
        await backend.waitUntilIdle()
        let perWrite = log.perWrite
        return (perWrite.filter { $0.invocations.count == 2 }.count, perWrite)
    }

    /// 10,000 writes at the default 0.5 %: 50 expected, 4σ band [22, 78].
    @Test func duplicateShareMatchesTheDefaultRate() async throws {
        let writes = 10_000, p = BackendFaults.default.triggerDuplicateProbability
        #expect(BinomialBound.isApproximationSound(trials: writes, probability: p))
        let measured = try await Self.duplicates(seed: 11, probability: p, writes: writes)
        #expect(measured.perWrite.count == writes, "every committed write invokes the handler at least once")
        #expect(measured.perWrite.allSatisfy { $0.invocations.count <= 2 }, "at most one extra delivery per write")
        #expect(BinomialBound.contains(observed: measured.duplicated, trials: writes, probability: p),
                "\(measured.duplicated) duplicated, want \(BinomialBound.band(trials: writes, probability: p))")
    }

    /// 4,000 writes at the "under stress" 5 %: 200 expected, 4σ band [145, 255].
    @Test func duplicateShareMatchesTheStressRate() async throws {
        let writes = 4_000, p = 0.05
        let measured = try await Self.duplicates(seed: 12, probability: p, writes: writes)
        #expect(BinomialBound.contains(observed: measured.duplicated, trials: writes, probability: p),
                "\(measured.duplicated) duplicated, want \(BinomialBound.band(trials: writes, probability: p))")
    }

    /// A kinder backend (duplicates off) must fail the predicate the two tests above use.
    @Test func backendWithoutDuplicatesFailsTheDuplicateCheck() async throws {
        let writes = 10_000, p = BackendFaults.default.triggerDuplicateProbability
        let kinder = try await Self.duplicates(seed: 11, probability: 0, writes: writes)
        #expect(kinder.duplicated == 0)
        #expect(!BinomialBound.contains(observed: kinder.duplicated, trials: writes, probability: p))
    }

    /// MODEL_RULES §12 is a switch: duplicates share the event id exactly when it is on.
    @Test(arguments: [true, false]) func duplicateEventIdsFollowTheSwitch(share: Bool) async throws {
        let measured = try await Self.duplicates(seed: 13, probability: 0.05, shareEventId: share, writes: 2_000)
        let duplicated = measured.perWrite.filter { $0.invocations.count == 2 }
        #expect(duplicated.count > 50)
        for (write, invocations) in duplicated {
            #expect((invocations[0].eventId == invocations[1].eventId) == share, "\(write)")
        }
    }

    // MARK: Reordering

    /// What the handler saw of pairs of writes to one document `spacing` apart.
    struct PairOrder {
        var close = 0, closeInverted = 0, far = 0, farInverted = 0
        /// Close pairs whose first event was still undelivered when the second write committed:
        /// only those can be overtaken (an event already delivered cannot be).
        var pending = 0, pendingInverted = 0
    }

    /// Writes `pairs` documents twice, `spacing` apart, and classifies each pair by its commit gap
    /// (as the handler sees it: `commitTime`) and by the order the two versions were invoked in.
    static func pairOrder(
        seed: UInt64, spacing: Duration, pairs: Int, reorderProbability: Double = BackendFaults.default.triggerReorderProbability,
        timingWindow: Duration = BackendFaults.default.concurrencyWindow, coldStartProbability: Double = 0, lateProbability: Double = 0
    ) throws -> PairOrder {
        var faults = BackendFaults.default
        faults.triggerDuplicateProbability = 0  // duplicates are measured above; here only order
        faults.triggerReorderProbability = reorderProbability
        faults.triggerLateProbability = lateProbability  // off unless measured: the window's model alone
        faults.adminOperationLatency = .zero  // commits exactly `spacing` apart (admin latency is measured elsewhere)
        faults.adminCallFailureProbability = 0
        faults.coldStartProbability = coldStartProbability  // off: the delivery model alone; a cold start delays the handler's run
        let window = faults.triggerReorderWindow
        let configured = faults
        return try onSimulator(seed: seed, timingWindow: timingWindow) { env in
            let backend = Backend(env: env, faults: configured)
            let log = InvocationLog()
            backend.functions.onWrite("items", kinds: Set(TriggerKind.allCases), name: "order") { event in
                log.record(event, now: env.clock.now)
            }
            for index in 0..<pairs {
                let path = DocumentPath("items", "p\(index)")
                try await backend.firestore.set(path, ["n": 1])
                try await env.clock.sleep(for: spacing)
                try await backend.firestore.set(path, ["n": 2])
                // Longer than the 10 s tail: at most a couple of pairs in flight at once.
                try await env.clock.sleep(for: .seconds(12))
            }
            await backend.waitUntilIdle()
            var order = PairOrder()
            for (_, invocations) in Dictionary(grouping: log.invocations, by: \.documentId).sorted(by: { $0.key < $1.key }) {
                guard invocations.count == 2, let first = invocations.first(where: { $0.version == 1 }),
                      let second = invocations.first(where: { $0.version == 2 }) else { continue }
                let inverted = invocations[0].version == 2
                if second.commitNanoseconds - first.commitNanoseconds < window.nanoseconds {
                    order.close += 1
                    if inverted { order.closeInverted += 1 }
                    if first.invokedNanoseconds > second.commitNanoseconds {
                        order.pending += 1
                        if inverted { order.pendingInverted += 1 }
                    }
                } else {
                    order.far += 1
                    if inverted { order.farInverted += 1 }
                }
            }
            return order
        }
    }

    /// 2,000 pairs 100 ms and 900 ms apart, under the runner's 10 ms timing window and under
    /// strict deadline order: a pair whose first event is still in flight when the second write
    /// commits is inverted at 15 % (4σ band: ±0.032 × pairs at 2,000 pending pairs, wider at
    /// fewer; 900 ms leaves about 1,150). All pairs: 15 % × P(first still in flight) — 0.143 at
    /// 100 ms, 0.086 at 900 ms from the delay model (body U[0, 2 s] at 0.95, tail to 10 s).
    @Test(arguments: [(Duration.milliseconds(100), Duration.milliseconds(10)), (.milliseconds(900), .milliseconds(10)),
                      (.milliseconds(100), .zero), (.milliseconds(900), .zero)])
    func closeWritesAreReorderedAtTheDocumentedRate(spacing: Duration, timingWindow: Duration) throws {
        let pairs = 2_000, p = BackendFaults.default.triggerReorderProbability
        let order = try Self.pairOrder(seed: 21, spacing: spacing, pairs: pairs, timingWindow: timingWindow)
        #expect(order.close == pairs && order.far == 0)
        #expect(BinomialBound.isApproximationSound(trials: order.pending, probability: p))
        #expect(BinomialBound.contains(observed: order.pendingInverted, trials: order.pending, probability: p),
                "\(order.pendingInverted) of \(order.pending) pending pairs inverted, want \(BinomialBound.band(trials: order.pending, probability: p))")
        let delay = BackendFaults.default.triggerDelay
        let inFlight = (1 - delay.tailProbability) * (1 - spacing.seconds / (2 * delay.median.seconds)) + delay.tailProbability
        #expect(BinomialBound.contains(observed: order.closeInverted, trials: order.close, probability: p * inFlight),
                "\(order.closeInverted) of \(order.close) inverted, want \(BinomialBound.band(trials: order.close, probability: p * inFlight))")
    }

    /// Writes 1.5 s apart (beyond the 1 s window) are never delivered out of commit order.
    /// Pinned: with deliveries planned 1 ns apart, seed 22 under the 10 ms timing window had 33
    /// of 2,000 pairs out of order (docs/domain.md, "Conformance suite").
    @Test(arguments: [Duration.milliseconds(10), .zero])
    func writesFartherApartThanTheWindowAreNeverReordered(timingWindow: Duration) throws {
        let order = try Self.pairOrder(seed: 22, spacing: .milliseconds(1_500), pairs: 2_000, timingWindow: timingWindow)
        #expect(order.far == 2_000)
        #expect(order.farInverted == 0, "\(order.farInverted) of \(order.far) far-apart pairs delivered out of order")
    }

    /// MODEL_RULES §29: no order at any distance. With `trigger-late` at 5 %, pairs 1.5 s apart
    /// are inverted when the first event is held back (10 s–10 min) and the second is not (the
    /// second, at most 11.5 s after the first commit, passes it unless its own tail outlasts the
    /// hold: under 1 % of such pairs), and half the time when both are: p(1−p)·0.99 + p²/2.
    @Test func aLateEventIsOvertakenHoweverFarApartItsSuccessorCommits() throws {
        let pairs = 2_000, p = 0.05
        let order = try Self.pairOrder(seed: 23, spacing: .milliseconds(1_500), pairs: pairs, lateProbability: p)
        #expect(order.far == pairs)
        let q = p * (1 - p) * 0.99 + p * p / 2
        #expect(BinomialBound.contains(observed: order.farInverted, trials: pairs, probability: q),
                "\(order.farInverted) of \(pairs) far-apart pairs inverted, want \(BinomialBound.band(trials: pairs, probability: q))")
    }

    /// MODEL_RULES §29: a retried event comes back with exponential backoff. A handler that always
    /// throws, deployed with retries: the wait before attempt n+1 lies in [c/2, c] for
    /// c = 10 s × 2^(n−1) capped at 600 s, and nothing is retried past the 24 h window.
    @Test func retriesBackOffExponentiallyWithinTheWindow() throws {
        var faults = BackendFaults.none
        faults.triggerRetryWindow = .seconds(3 * 3600)
        let configured = faults
        let attempts = try onSimulator(seed: 24) { env in
            let backend = Backend(env: env, faults: configured)
            let times = Mutex<[Int64]>([])
            backend.functions.onCreate("items", name: "fails", retry: true) { _ in
                times.withLock { $0.append(env.clock.elapsedNanoseconds) }
                throw BackendError.unavailable("always")
            }
            try await backend.firestore.set(DocumentPath("items", "a"), ["n": 1])
            await backend.waitUntilIdle()
            return times.withLock { $0 }
        }
        #expect(attempts.count > 10)
        for n in 1..<attempts.count {
            let ceiling = min(600, 10 << min(n - 1, 20)) * 1_000_000_000
            let wait = attempts[n] - attempts[n - 1]
            #expect(wait >= Int64(ceiling / 2) && wait <= Int64(ceiling) + 1_000_000_000, "wait \(wait) before attempt \(n + 1), ceiling \(ceiling)")
        }
        #expect(attempts.last! - attempts.first! < 3 * 3600 * 1_000_000_000 + 600 * 1_000_000_000)
    }

    /// A kinder backend (reordering off) must fail the reorder predicate. Pinned: before the fix,
    /// seed 21 inverted 242 of 2,000 pairs with reordering off (the timing window swapped them).
    @Test func backendWithoutReorderingFailsTheReorderCheck() throws {
        let p = BackendFaults.default.triggerReorderProbability
        let kinder = try Self.pairOrder(seed: 21, spacing: .milliseconds(100), pairs: 2_000, reorderProbability: 0)
        #expect(kinder.closeInverted == 0)
        #expect(!BinomialBound.contains(observed: kinder.pendingInverted, trials: kinder.pending, probability: p))
    }

    // MARK: Delay

    /// 4,000 single writes, one at a time (so the handler's clock is the delivery time): the delay
    /// model is a body uniform on [0, 2 s] with probability 0.95 and a tail uniform on [2 s, 10 s].
    /// Binomial counts (4σ): ≤ 0.5 s at 0.2375, ≤ 1 s at 0.475 (so the median is about 1 s:
    /// exactly 1.053 s), > 2 s at 0.05 (the tail share); every delay within [0, 10 s].
    @Test func deliveryDelayFollowsTheDocumentedDistribution() async throws {
        var faults = BackendFaults.none
        faults.triggerDelay = BackendFaults.default.triggerDelay
        let backend = makeBackend(seed: 31, faults: faults)
        let log = InvocationLog()
        backend.functions.onCreate("items", name: "delay") { event in log.record(event, now: backend.env.clock.now) }
        let writes = 4_000
        for index in 0..<writes {
            try await backend.firestore.create(DocumentPath("items", "d\(index)"), ["n": 1])
            await backend.waitUntilIdle()
        }
        var delays = Samples()
        for invocation in log.invocations { delays.add(Double(invocation.invokedNanoseconds - invocation.commitNanoseconds) / 1e9) }
        #expect(delays.count == writes)
        #expect(delays.minimum >= 0 && delays.maximum <= 10)
        #expect(delays.maximum > 9, "the tail reaches towards 10 s (200 tail draws expected)")
        let model = BackendFaults.default.triggerDelay
        let body = 1 - model.tailProbability
        for (threshold, p) in [(0.5, body * 0.25), (1.0, body * 0.5)] {
            let observed = delays.count(atMost: threshold)
            #expect(BinomialBound.contains(observed: observed, trials: writes, probability: p),
                    "\(observed) delays ≤ \(threshold) s, want \(BinomialBound.band(trials: writes, probability: p))")
        }
        let tail = delays.count(above: 2)
        #expect(BinomialBound.contains(observed: tail, trials: writes, probability: model.tailProbability),
                "\(tail) delays > 2 s, want \(BinomialBound.band(trials: writes, probability: model.tailProbability))")
    }
}
