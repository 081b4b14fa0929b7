import Domain
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, a function's maximum instances (docs/domain.md "Function instances";
/// MODEL_RULES §21): invocations beyond the limit queue first come first served, a callable gives
/// up after 30 s with RESOURCE_EXHAUSTED, and in a surge one may start past the limit at its rate.
@Suite struct ConformanceInstanceLimitTests {
    /// Five events of a trigger deployed with `maxInstances: 2`, each running 10 s, written at
    /// once: never more than two run together, they start in pairs 10 s apart, and three queued;
    /// without a limit all five run at once.
    @Test(arguments: [(2 as Int?, 2, 3), (nil, 5, 0)])
    func eventsBeyondTheLimitQueueForAnInstance(maxInstances: Int?, concurrent: Int, queued: Int) throws {
        let outcome = try onSimulator(seed: 151) { env in
            var faults = BackendFaults.none
            faults.instanceOvershootProbability = 0
            let backend = Backend(env: env, faults: faults)
            let running = Mutex((now: 0, most: 0, starts: [Int64]()))
            backend.functions.onCreate("jobs", name: "slowJob", maxInstances: maxInstances) { _ in
                running.withLock { $0.now += 1; $0.most = max($0.most, $0.now); $0.starts.append(env.clock.nowUnixNanoseconds) }
                try await env.clock.sleep(for: .seconds(10))
                running.withLock { $0.now -= 1 }
            }
            let start = env.clock.nowUnixNanoseconds
            for job in 0..<5 { try await backend.firestore.create(DocumentPath("jobs", "j\(job)"), ["n": .int(Int64(job))]) }
            await backend.waitUntilIdle()
            let state = running.withLock { $0 }
            return (most: state.most, starts: state.starts.map { ($0 - start) / 1_000_000_000 },
                    queued: backend.faultLedger.tallies[.instanceQueueWait]?.observed ?? 0)
        }
        #expect(outcome.most == concurrent)
        #expect(outcome.queued == queued)
        if maxInstances == 2 { #expect(outcome.starts == [0, 0, 10, 10, 20], "\(outcome.starts)") }
    }

    /// A callable deployed with `maxInstances: 1` whose call runs 45 s: a second call waits 30 s for
    /// the instance and answers RESOURCE_EXHAUSTED having run nothing; a call after the first ends
    /// runs.
    @Test func aCallableGivesUpAfterThirtySecondsInTheQueue() throws {
        let outcome = try onSimulator(seed: 152) { env in
            var faults = BackendFaults.none
            faults.instanceOvershootProbability = 0
            let backend = Backend(env: env, faults: faults)
            let runs = Mutex(0)
            backend.functions.callable("slow", maxInstances: 1) { _ in
                runs.withLock { $0 += 1 }
                try await env.clock.sleep(for: .seconds(45))
                return .null
            }
            async let first: Value = backend.functions.invoke("slow", data: [:], auth: nil)
            try await env.clock.sleep(for: .seconds(1))
            let start = env.clock.now
            let second = await backendError { _ = try await backend.functions.invoke("slow", data: [:], auth: nil) }
            let waited = env.clock.now - start
            _ = try await first
            let third = await backendError { _ = try await backend.functions.invoke("slow", data: [:], auth: nil) }
            return (second: second?.code, waited: waited, third: third, runs: runs.withLock { $0 })
        }
        #expect(outcome.second == "RESOURCE_EXHAUSTED")
        #expect(outcome.waited == .seconds(30))
        #expect(outcome.third == nil)
        #expect(outcome.runs == 2, "the refused call ran nothing")
    }

    /// 2,000 pairs of events of a trigger deployed with `maxInstances: 1`, the second written while
    /// the first runs: at 5 % the second starts past the limit (the binomial band), the ledger's
    /// count exact; at 0 never.
    @Test(arguments: [0.0, 0.05])
    func aSurgeStartsAnInstancePastTheLimitAtItsRate(probability: Double) throws {
        let outcome = try onSimulator(seed: 153) { env in
            var faults = BackendFaults.none
            faults.instanceOvershootProbability = probability
            let backend = Backend(env: env, faults: faults)
            let running = Mutex((now: 0, overlaps: 0))
            backend.functions.onCreate("jobs", name: "job", maxInstances: 1) { _ in
                running.withLock { $0.now += 1; if $0.now > 1 { $0.overlaps += 1 } }
                try await env.clock.sleep(for: .seconds(2))
                running.withLock { $0.now -= 1 }
            }
            for pair in 0..<2_000 {
                try await backend.firestore.create(DocumentPath("jobs", "a\(pair)"), ["n": 1])
                try await backend.firestore.create(DocumentPath("jobs", "b\(pair)"), ["n": 2])
                await backend.waitUntilIdle()
            }
            let tally = backend.faultLedger.tallies[.instanceOvershoot]
            return (overlaps: running.withLock { $0.overlaps }, observed: tally?.observed ?? 0, chances: tally?.opportunities ?? 0)
        }
        #expect(outcome.overlaps == outcome.observed)
        if probability == 0 {
            #expect(outcome.overlaps == 0 && outcome.chances == 0)
        } else {
            #expect(outcome.chances == 2_000)
            #expect(BinomialBound.contains(observed: outcome.observed, trials: 2_000, probability: probability),
                    "\(outcome.observed) overshoots, want \(BinomialBound.band(trials: 2_000, probability: probability))")
        }
    }
}
