import Domain
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, Cloud Functions' life cycle and device clocks (docs/domain.md "Function
/// instances", "Admin calls fail", "Device clocks"; MODEL_RULES §20–24): cold starts, admin-call
/// retries and device clocks happen at their configured rates, cost what they are documented to
/// cost, and the fault ledger counts each exactly.
@Suite struct ConformanceLifecycleTests {
    /// 4,000 callable invocations at the default 5 %: cold starts in the band [124, 276]; each
    /// costs 1–5 s before the body runs, the others nothing; every cold start is a new instance.
    @Test func coldStartsHappenAtTheirRateAndCostOneToFiveSeconds() async throws {
        var faults = BackendFaults.none
        faults.coldStartProbability = BackendFaults.default.coldStartProbability
        let backend = makeBackend(seed: 131, faults: faults)
        let started = Mutex<[Int64]>([])
        backend.functions.callable("ping") { request in
            started.withLock { $0.append(request.time.unixNanoseconds) }
            return .null
        }
        let calls = 4_000
        var waits: [Int64] = []
        for _ in 0..<calls {
            let before = backend.env.clock.nowUnixNanoseconds
            _ = try await backend.functions.invoke("ping", data: [:], auth: nil)
            waits.append(started.withLock { $0.last! } - before)
        }
        let cold = waits.filter { $0 > 0 }
        let p = faults.coldStartProbability
        #expect(BinomialBound.contains(observed: cold.count, trials: calls, probability: p),
                "\(cold.count) cold starts, want \(BinomialBound.band(trials: calls, probability: p))")
        #expect(cold.allSatisfy { (1_000_000_000...5_000_000_000).contains($0) }, "a cold start outside 1–5 s")
        let tally = backend.faultLedger.tallies[.coldStart]
        #expect(tally?.opportunities == calls && tally?.observed == cold.count)
    }

    /// With cold starts on, trigger handlers of writes 1.5 s apart (never reordered by delivery)
    /// sometimes run out of commit order: a cold-started instance starts the older event's handler
    /// after the newer one's (MODEL_RULES §20: no order at any distance). Off, never.
    @Test(arguments: [(0.0, false), (0.3, true)])
    func coldStartsReorderHandlerRunsAtAnyDistance(probability: Double, reorders: Bool) throws {
        let order = try ConformanceTriggerTests.pairOrder(
            seed: 22, spacing: .milliseconds(1_500), pairs: 500, coldStartProbability: probability)
        #expect(order.far == 500)
        #expect((order.farInverted > 0) == reorders, "\(order.farInverted) of 500 far-apart pairs ran out of order")
    }

    /// 20,000 admin reads at 5 %: failed attempts in the band of 5 % of all attempts, each retried
    /// (the read always answers), each adding at least its 50 ms of backoff; at 0, no retry.
    @Test(arguments: [0.0, 0.05])
    func adminCallsFailAtTheirRateAndAreRetried(probability: Double) async throws {
        var faults = BackendFaults.none
        faults.adminCallFailureProbability = probability
        let backend = makeBackend(seed: 133, faults: faults)
        try await backend.firestore.create(DocumentPath("docs", "d"), ["n": 1])
        let reads = 20_000
        var slow = 0
        for _ in 0..<reads {
            let before = backend.env.clock.nowUnixNanoseconds
            #expect(await backend.firestore.get(DocumentPath("docs", "d")).exists)
            if backend.env.clock.nowUnixNanoseconds - before >= 50_000_000 { slow += 1 }
        }
        let tally = backend.faultLedger.tallies[.adminCallFailure] ?? .init()
        if probability == 0 {
            #expect(tally.observed == 0 && slow == 0)
        } else {
            #expect(BinomialBound.contains(observed: tally.observed, trials: tally.opportunities, probability: probability),
                    "\(tally.observed) failed attempts, want \(BinomialBound.band(trials: tally.opportunities, probability: probability))")
            #expect(tally.opportunities == reads + 1 + tally.observed, "every failed attempt is retried once more (the create is a call too)")
            #expect(slow > 0 && slow <= tally.observed, "\(slow) slow reads for \(tally.observed) failed attempts")
        }
    }

    /// 10,000 devices at the defaults: clocks off in the band of 4 %, each off by more than twice
    /// the synced spread and at most 12 h; the rest within ±500 ms; jumps in the band of 10 %. The
    /// ledger counts each device once, when it first reads its clock.
    @Test func deviceClocksAreOffAndJumpAtTheirRates() async throws {
        let faults = BackendFaults.default
        let backend = makeBackend(seed: 134, faults: faults)
        let devices = 10_000
        var off = 0, jumps = 0
        for index in 0..<devices {
            let clock = backend.client(auth: nil, label: "d\(index)").deviceClock
            let offset = abs(clock.initialOffsetNanoseconds)
            if offset > faults.deviceClockSyncedSpread.nanoseconds {
                off += 1
                #expect(offset >= 2 * faults.deviceClockSyncedSpread.nanoseconds && offset <= faults.deviceClockFarOffMax.nanoseconds)
            }
            if let jump = clock.jump {
                jumps += 1
                #expect(abs(jump.offsetNanoseconds) <= faults.deviceClockSyncedSpread.nanoseconds)
            }
        }
        #expect(BinomialBound.contains(observed: off, trials: devices, probability: faults.deviceClockOffProbability),
                "\(off) clocks off, want \(BinomialBound.band(trials: devices, probability: faults.deviceClockOffProbability))")
        #expect(BinomialBound.contains(observed: jumps, trials: devices, probability: faults.deviceClockJumpProbability))
        let ledger = backend.faultLedger.tallies
        #expect(ledger[.deviceClockOff]?.observed == off && ledger[.deviceClockOff]?.opportunities == devices)
        #expect(ledger[.deviceClockJump]?.observed == jumps)
    }

    /// A device's `Date()` is the server's time plus its offset, switching at the jump; its uptime
    /// and its estimate of the server's time ignore both (the estimate lags by at most the
    /// quickest round trip it has seen).
    @Test func aDeviceClockIsOffButItsServerTimeEstimateIsNot() async throws {
        var faults = BackendFaults.none
        faults.deviceClockOffProbability = 1
        faults.deviceClockFarOffShare = 1
        faults.deviceClockJumpProbability = 1
        faults.networkLatency = LatencyModel(median: .milliseconds(60), tailProbability: 0, tailMax: .milliseconds(120))
        let backend = makeBackend(seed: 135, faults: faults)
        let client = backend.client(auth: nil, label: "phone")
        let clock = client.deviceClock
        let server = backend.env.clock
        #expect(clock.now.unixNanoseconds - server.nowUnixNanoseconds == clock.initialOffsetNanoseconds)
        #expect(abs(clock.initialOffsetNanoseconds) >= 2 * faults.deviceClockSyncedSpread.nanoseconds)
        #expect(client.network.serverTimeEstimate == nil)
        _ = try await client.get(DocumentPath("docs", "d"))
        let jump = try #require(clock.jump)
        try await server.sleep(for: .nanoseconds(jump.atElapsedNanoseconds - server.elapsedNanoseconds + 1))
        #expect(clock.offsetNanoseconds == jump.offsetNanoseconds)
        let estimate = try #require(client.network.serverTimeEstimate)
        let lag = server.nowUnixNanoseconds - estimate.unixNanoseconds
        #expect(lag >= 0 && lag <= 240_000_000, "the estimate lags by \(lag) ns")
        #expect(clock.uptimeNanoseconds == server.elapsedNanoseconds)
    }
}
