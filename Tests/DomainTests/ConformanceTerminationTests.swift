import Domain
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, functions terminated mid-run (docs/domain.md "Function life cycle";
/// MODEL_RULES §20): an invocation past its execution timeout, or whose instance crashes, keeps
/// the writes it made and makes none after; its event is lost without retries and redelivered
/// with them; the fault ledger counts each termination once.
@Suite struct ConformanceTerminationTests {
    /// A trigger that writes, waits 70 s, then writes again: at the default 60 s timeout only the
    /// first write lands and the event is lost; deployed with 120 s, both land.
    @Test(arguments: [(nil as Int?, false), (120, true)])
    func aTimeoutKeepsTheWritesBeforeItAndNoneAfter(timeoutSeconds: Int?, secondLands: Bool) throws {
        let outcome = try onSimulator(seed: 141) { env in
            let backend = Backend(env: env, faults: .none)
            let firestore = backend.firestore
            backend.functions.onCreate("jobs", name: "slowJob", timeout: timeoutSeconds.map { .seconds($0) }) { event in
                try await firestore.set(DocumentPath("done", "\(event.path.id)-first"), ["n": 1])
                try await env.clock.sleep(for: .seconds(70))
                try await firestore.set(DocumentPath("done", "\(event.path.id)-second"), ["n": 2])
            }
            try await firestore.create(DocumentPath("jobs", "j"), ["n": 0])
            await backend.waitUntilIdle()
            return (first: firestore.liveFields(DocumentPath("done", "j-first")) != nil,
                    second: firestore.liveFields(DocumentPath("done", "j-second")) != nil,
                    lost: backend.functions.lostEvents.count, timeouts: backend.faultLedger.tallies[.functionTimeout]?.observed ?? 0)
        }
        #expect(outcome.first)
        #expect(outcome.second == secondLands)
        #expect(outcome.lost == (secondLands ? 0 : 1))
        #expect(outcome.timeouts == (secondLands ? 0 : 1))
    }

    /// 4,000 callables at 5 % crashes, each making four writes: crashed calls answer INTERNAL and
    /// kept zero to three of their writes, the rest all four; crashes in the binomial band, the
    /// ledger's count exact.
    @Test func crashesHappenAtTheirRateAndKeepOnlyTheWritesBefore() async throws {
        var faults = BackendFaults.none
        faults.functionCrashProbability = 0.05
        let backend = makeBackend(seed: 142, faults: faults)
        let firestore = backend.firestore
        backend.functions.callable("fourWrites") { request in
            let call = request.data["call"]?.intValue ?? -1
            for write in 0..<4 { try await firestore.set(DocumentPath("w", "\(call)-\(write)"), ["n": .int(Int64(write))]) }
            return .null
        }
        let calls = 4_000
        var crashed = 0
        var kept: [Int] = []
        for call in 0..<calls {
            let error = await backendError { _ = try await backend.functions.invoke("fourWrites", data: ["call": .int(Int64(call))], auth: nil) }
            let writes = (0..<4).filter { firestore.liveFields(DocumentPath("w", "\(call)-\($0)")) != nil }.count
            if let error {
                crashed += 1
                #expect(error.code == "INTERNAL", "a crashed call answers INTERNAL, got \(error)")
                kept.append(writes)
            } else {
                #expect(writes == 4)
            }
        }
        let p = faults.functionCrashProbability
        #expect(BinomialBound.contains(observed: crashed, trials: calls, probability: p),
                "\(crashed) crashes, want \(BinomialBound.band(trials: calls, probability: p))")
        #expect(kept.allSatisfy { $0 < 4 } && Set(kept).count > 1, "crashed calls kept \(Set(kept).sorted()) of their four writes")
        let tally = backend.faultLedger.tallies[.functionCrash]
        #expect(tally?.opportunities == calls && tally?.observed == crashed)
    }

    /// Triggers deployed with retries survive crashes (every event's write lands, some after a
    /// redelivery); without retries, crashed events are lost.
    @Test(arguments: [true, false])
    func retriesRedeliverWhatACrashLost(retry: Bool) throws {
        let jobs = 200
        let outcome = try onSimulator(seed: 143) { env in
            var faults = BackendFaults.none
            faults.functionCrashProbability = 0.3
            let backend = Backend(env: env, faults: faults)
            let firestore = backend.firestore
            let attempts = Mutex<[Int]>([])
            backend.functions.onCreate("jobs", name: "mark", retry: retry) { event in
                attempts.withLock { $0.append(event.attempt) }
                try await firestore.set(DocumentPath("marks", event.path.id), ["at": .int(Int64(event.attempt))])
            }
            for job in 0..<jobs { try await firestore.create(DocumentPath("jobs", "j\(job)"), ["n": 0]) }
            await backend.waitUntilIdle()
            return (marked: (0..<jobs).filter { firestore.liveFields(DocumentPath("marks", "j\($0)")) != nil }.count,
                    crashes: backend.faultLedger.tallies[.functionCrash]?.observed ?? 0, lost: backend.functions.lostEvents.count,
                    redelivered: attempts.withLock { $0.contains { $0 > 1 } })
        }
        #expect(outcome.crashes > 0)
        if retry {
            #expect(outcome.marked == jobs && outcome.lost == 0)
            #expect(outcome.redelivered, "some event was redelivered")
        } else {
            #expect(outcome.lost == outcome.crashes, "each crash lost its event")
            #expect(outcome.marked >= jobs - outcome.crashes && outcome.marked < jobs)
        }
    }

    /// What a terminated invocation set off is not part of it: the trigger its first write fires
    /// runs in an invocation of its own and writes, though the writer is terminated.
    @Test func workAWriteSetsOffOutlivesTheWriter() throws {
        let outcome = try onSimulator(seed: 144) { env in
            let backend = Backend(env: env, faults: .none)
            let firestore = backend.firestore
            backend.functions.onCreate("jobs", name: "writer") { event in
                try await env.clock.sleep(for: .seconds(30))
                try await firestore.set(DocumentPath("handoffs", event.path.id), ["n": 1])
                try await env.clock.sleep(for: .seconds(31))
                try await firestore.set(DocumentPath("late", event.path.id), ["n": 1])
            }
            backend.functions.onCreate("handoffs", name: "follower") { event in
                try await env.clock.sleep(for: .seconds(45))  // writes at 75 s, after the writer died at 60 s
                try await firestore.set(DocumentPath("followed", event.path.id), ["n": 1])
            }
            try await firestore.create(DocumentPath("jobs", "j"), ["n": 0])
            await backend.waitUntilIdle()
            return (late: firestore.liveFields(DocumentPath("late", "j")) != nil, followed: firestore.liveFields(DocumentPath("followed", "j")) != nil)
        }
        #expect(!outcome.late, "the writer was terminated at 60 s")
        #expect(outcome.followed, "the follower's invocation is its own")
    }
}
