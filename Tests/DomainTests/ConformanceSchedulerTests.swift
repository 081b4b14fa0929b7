import Domain
import SimulatedFirebase
import Synchronization
import Testing

/// Backend conformance, Cloud Scheduler (docs/domain.md "Conformance suite"; MODEL_RULES
/// §13–14): at least once per tick, duplicate ticks about 7 s later, 0–10 s start jitter, and a
/// run outliving its 3-minute deadline retried while it still runs. Measured on the simulator,
/// where runs start at their virtual times.
@Suite struct ConformanceSchedulerTests {
    struct Run: Sendable {
        let tick: Int64
        let attempt: Int
        let isDuplicate: Bool
        let start: Int64
        let end: Int64
    }

    /// Ticks a one-minute job `ticks` times; each run takes `runTime` of virtual time.
    static func runs(seed: UInt64, faults: BackendFaults, ticks: Int, runTime: Duration = .zero) throws -> (ticks: [Int64], runs: [Run]) {
        try onSimulator(seed: seed) { env in
            let backend = Backend(env: env, faults: faults)
            let log = Mutex<[Run]>([])
            let period = Duration.seconds(60)
            backend.functions.schedule("job", every: period) { run in
                let start = env.clock.now
                try await env.clock.sleep(for: runTime)
                let entry = Run(
                    tick: run.scheduledTime.unixNanoseconds, attempt: run.attempt, isDuplicate: run.isDuplicate,
                    start: start.unixNanoseconds, end: env.clock.now.unixNanoseconds)
                log.withLock { $0.append(entry) }
            }
            let first = env.clock.now + period
            await backend.scheduler.start(firstTick: first, until: first + period * (ticks - 1))
            await backend.waitUntilIdle()
            let tickTimes = (0..<ticks).map { first.unixNanoseconds + period.nanoseconds * Int64($0) }
            return (tickTimes, log.withLock { $0 })
        }
    }

    /// 10,000 ticks at the defaults (runs finish at once). Every tick runs at least once; its
    /// first run starts 0–10 s late (count ≤ 5 s binomial at 0.5, both ends reached: missing one
    /// has probability 0.99^10000); duplicate share binomial at 1 % (4σ band [60, 140]); a
    /// duplicate starts 7–17 s after its tick, on average 7 s after the first run (100 duplicates,
    /// sd of the gap 4.1 s: ±1.7 s is 4σ).
    @Test func everyTickRunsAtLeastOnceWithJitterAndDuplicates() throws {
        var faults = BackendFaults.default
        faults.coldStartProbability = 0  // a cold start delays the run past its jitter (measured in ColdStartTests)
        let ticks = 10_000
        let measured = try Self.runs(seed: 81, faults: faults, ticks: ticks)
        let byTick = Dictionary(grouping: measured.runs, by: \.tick)
        #expect(byTick.count == ticks && Set(byTick.keys) == Set(measured.ticks), "every tick runs")
        var jitter = Samples(), duplicateLag = Samples(), duplicateGap = Samples()
        var duplicated = 0
        for (tick, runs) in byTick {
            let firsts = runs.filter { $0.attempt == 1 && !$0.isDuplicate }
            #expect(firsts.count == 1, "tick \(tick): \(firsts.count) first runs")
            guard let first = firsts.first else { continue }
            jitter.add(Double(first.start - tick) / 1e9)
            let duplicates = runs.filter { $0.attempt == 1 && $0.isDuplicate }
            #expect(duplicates.count <= 1)
            if let duplicate = duplicates.first {
                duplicated += 1
                duplicateLag.add(Double(duplicate.start - tick) / 1e9)
                duplicateGap.add(Double(duplicate.start - first.start) / 1e9)
            }
            #expect(!runs.contains { $0.attempt > 1 }, "runs that finish at once are never retried")
        }
        let maxJitter = faults.scheduleStartJitterMax.seconds
        #expect(jitter.minimum >= 0 && jitter.maximum <= maxJitter)
        #expect(jitter.minimum < 0.01 * maxJitter && jitter.maximum > 0.99 * maxJitter)
        let early = jitter.count(atMost: maxJitter / 2)
        #expect(BinomialBound.contains(observed: early, trials: ticks, probability: 0.5), "\(early) runs in the first half of the jitter")
        let p = faults.scheduleDuplicateProbability
        #expect(BinomialBound.contains(observed: duplicated, trials: ticks, probability: p),
                "\(duplicated) duplicated ticks, want \(BinomialBound.band(trials: ticks, probability: p))")
        let delay = faults.scheduleDuplicateDelay.seconds
        #expect(duplicateLag.minimum >= delay && duplicateLag.maximum <= delay + maxJitter)
        #expect(abs(duplicateGap.mean - delay) <= 1.7, "duplicates \(duplicateGap.mean) s after the first run on average")
    }

    /// A kinder scheduler (no duplicate ticks) fails the duplicate predicate; 2,000 ticks at the
    /// stress-like 5 % pass it (4σ band [61, 139]).
    @Test func duplicateTickPredicateSeparatesTheRates() throws {
        for (probability, passes) in [(0.0, false), (0.05, true)] {
            var faults = BackendFaults.default
            faults.scheduleDuplicateProbability = probability
            let measured = try Self.runs(seed: 82, faults: faults, ticks: 2_000)
            let duplicated = Set(measured.runs.filter(\.isDuplicate).map(\.tick)).count
            #expect(BinomialBound.contains(observed: duplicated, trials: 2_000, probability: 0.05) == passes,
                    "p = \(probability): \(duplicated) duplicated ticks")
        }
    }

    /// Runs of 200 s outlive the 180 s deadline: about half the ticks (1,000, 4σ band [437, 563])
    /// get a second attempt that starts 180 s after the first while the first still runs. Runs of
    /// 100 s never get one; with the overlap probability 0 the predicate fails.
    @Test func runsOutlivingTheDeadlineAreRetriedWhileStillRunning() throws {
        var faults = BackendFaults.default
        faults.scheduleDuplicateProbability = 0  // measured above; here one first run per tick
        faults.coldStartProbability = 0  // a cold start delays the run's start, not its deadline
        let p = faults.scheduleOverlapRetryProbability, ticks = 1_000
        let long = try Self.runs(seed: 83, faults: faults, ticks: ticks, runTime: .seconds(200))
        let retried = long.runs.filter { $0.attempt == 2 }
        let firsts = Dictionary(uniqueKeysWithValues: long.runs.filter { $0.attempt == 1 }.map { ($0.tick, $0) })
        #expect(firsts.count == ticks)
        #expect(Set(retried.map(\.tick)).count == retried.count, "at most one retry per tick")
        #expect(BinomialBound.contains(observed: retried.count, trials: ticks, probability: p),
                "\(retried.count) retried ticks, want \(BinomialBound.band(trials: ticks, probability: p))")
        for retry in retried {
            guard let first = firsts[retry.tick] else { continue }
            let lag = Double(retry.start - first.start) / 1e9
            #expect(abs(lag - faults.scheduleDeadline.seconds) <= faults.concurrencyWindow.seconds, "retry \(lag) s after the first run")
            #expect(retry.start < first.end, "the retry overlaps the first run")
        }
        let short = try Self.runs(seed: 84, faults: faults, ticks: ticks, runTime: .seconds(100))
        #expect(!short.runs.contains { $0.attempt == 2 }, "runs within the deadline are not retried")
        faults.scheduleOverlapRetryProbability = 0
        let kinder = try Self.runs(seed: 83, faults: faults, ticks: ticks, runTime: .seconds(200))
        let kinderRetried = kinder.runs.filter { $0.attempt == 2 }.count
        #expect(!BinomialBound.contains(observed: kinderRetried, trials: ticks, probability: p))
    }
}
