import Foundation
import RehearsalTestSupport
import Testing
@testable import Sim
import KernelWorkloads

@Suite struct DeterminismTests {
    @Test func deterministicHashingIsOn() {
        #expect(ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == "1",
                "export SWIFT_DETERMINISTIC_HASHING=1 before running the tests")
    }

    /// 1,000 seeds of 50 racing bidders, each run twice: identical hashes and outputs; then the
    /// same seeds spread over 2 threads at once: the same hashes again.
    @Test(.ciOnly, .tags(.slow)) func thousandSeedsTwiceAndOnTwoThreads() {
        let seeds = Array(UInt64(0)..<1_000)
        let config = { @Sendable (seed: UInt64) in SimulationConfiguration(seed: seed, strategy: .random) }
        let sequential = seeds.map { seed -> (TraceHash, String?) in
            let a = Simulation.run(config(seed)) { try await KernelWorkload.auctionRace() }
            let b = Simulation.run(config(seed)) { try await KernelWorkload.auctionRace() }
            #expect(a.outcome == .finished, "seed \(seed): \(a.outcome)")
            #expect(a.traceHash == b.traceHash, "seed \(seed)")
            #expect(a.output == b.output, "seed \(seed)")
            return (a.traceHash, a.output)
        }
        let parallel = SimulationPool.map(seeds, threads: 2) { seed -> (TraceHash, String?) in
            let run = Simulation.run(config(seed)) { try await KernelWorkload.auctionRace() }
            return (run.traceHash, run.output)
        }
        for index in seeds.indices {
            #expect(sequential[index].0 == parallel[index].0, "seed \(seeds[index]) differs on 2 threads")
            #expect(sequential[index].1 == parallel[index].1)
        }
        // Different seeds explore different interleavings.
        #expect(Set(sequential.map(\.0)).count == seeds.count)
    }

    @Test func everyStrategyIsDeterministic() {
        for strategy: SchedulingStrategy in [.fifo, .random, .pct(depth: 3, horizon: 500)] {
            for seed in UInt64(0)..<20 {
                let verdict = DeterminismCheck.check(SimulationConfiguration(seed: seed, strategy: strategy)) {
                    try await KernelWorkload.auctionRace(bidders: 10)
                }
                #expect(verdict.isDeterministic, "\(strategy): \(verdict.summary)")
            }
        }
    }

    /// A small race (4 bidders, one round) ends in many different ways across seeds.
    @Test func seedsExploreDifferentOutcomes() {
        let outcomes = Set((UInt64(0)..<200).compactMap { seed in
            Simulation.run(SimulationConfiguration(seed: seed)) {
                try await KernelWorkload.auctionRace(bidders: 4, rounds: 1)
            }.output
        })
        #expect(outcomes.count >= 20, "only \(outcomes.count) distinct outcomes over 200 seeds")
    }

    @Test func replayingTheDecisionsLogReproducesTheRun() {
        for seed in UInt64(0)..<20 {
            let original = Simulation.run(SimulationConfiguration(seed: seed, strategy: .pct(depth: 2, horizon: 300))) {
                try await KernelWorkload.auctionRace(bidders: 8)
            }
            let replayed = Simulation.run(SimulationConfiguration(seed: seed, strategy: .replay(decisions: original.decisions))) {
                try await KernelWorkload.auctionRace(bidders: 8)
            }
            #expect(replayed.output == original.output)
            #expect(replayed.decisions == original.decisions)
        }
    }

    /// Every strategy's log replays to the same run — the same choices among the same ready
    /// sets, timing choices included — so the trace hash matches, not only the output.
    @Test(arguments: [SchedulingStrategy.random, .pct(depth: 2, horizon: nil), .pct(depth: 3, horizon: nil), .portfolio, .fifo, .nonpreemptive])
    func everyStrategysLogReplaysToTheSameTrace(strategy: SchedulingStrategy) {
        var timingChoices: UInt64 = 0
        for seed in UInt64(0)..<15 {
            let configuration = SimulationConfiguration(seed: seed, strategy: strategy, timingWindowNanoseconds: 20_000_000)
            let original = Simulation.run(configuration) { try await KernelWorkload.auctionRace(bidders: 8) }
            var replay = configuration
            replay.strategy = .replay(decisions: original.decisions)
            let replayed = Simulation.run(replay) { try await KernelWorkload.auctionRace(bidders: 8) }
            #expect(replayed.traceHash == original.traceHash, "\(strategy) seed \(seed)")
            #expect(replayed.decisions == original.decisions)
            timingChoices += original.timingDecisions
        }
        #expect(timingChoices > 0, "a 20 ms window over 0–200 ms think times must offer timing choices")
    }

    /// With a timing window the strategy, not only the latency draws, decides which of two
    /// nearly simultaneous wake-ups goes first: random reaches orders the strict deadline order
    /// never shows, and a zero window is exactly the strict order.
    @Test func timingWindowLetsTheStrategyOrderNearlySimultaneousTimers() {
        func order(_ seed: UInt64, window: UInt64, _ strategy: SchedulingStrategy) -> String {
            Simulation.run(SimulationConfiguration(seed: seed, strategy: strategy, timingWindowNanoseconds: window)) {
                let log = EventLog()
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await SimClock().sleep(for: .milliseconds(10)); await log.add("early") }
                    group.addTask { try? await SimClock().sleep(for: .milliseconds(12)); await log.add("late") }
                }
                return await log.events.joined(separator: ",")
            }.output!
        }
        let strict = Set((0..<50).map { order($0, window: 0, .random) })
        let windowed = Set((0..<50).map { order($0, window: 5_000_000, .random) })
        let wide = Set((0..<50).map { order($0, window: 1_000_000, .random) })
        #expect(strict == ["early,late"])
        #expect(windowed == ["early,late", "late,early"])
        #expect(wide == ["early,late"], "2 ms apart is outside a 1 ms window")
        #expect(Set((0..<20).map { order($0, window: 5_000_000, .nonpreemptive) }) == ["early,late"])
    }

    @Test func divergenceNamesTheFirstDifferingEntry() {
        let a = [TraceEvent(step: 0, timeNanoseconds: 0, kind: .run, actor: 1, readyCount: 2, chosenIndex: 0, detail: "x")]
        var b = a
        b.append(TraceEvent(step: 1, timeNanoseconds: 5, kind: .event, actor: 1, readyCount: 0, chosenIndex: 0, detail: "late"))
        let divergence = DeterminismCheck.firstDivergence(a, b)
        #expect(divergence?.index == 1)
        #expect(divergence?.first == nil)
        #expect(divergence?.second?.detail == "late")
        b[0].chosenIndex = 1
        #expect(DeterminismCheck.firstDivergence(a, b)?.index == 0)
    }
}

@Suite struct RandomStreamTests {
    /// Drawing from one stream, or creating a new one, never changes another stream's draws.
    @Test func streamsAreIndependent() {
        let streams = RandomStreams(seed: 99)
        var alone = streams.stream(named: "bids")
        let expected = (0..<8).map { _ in alone.next() }
        var bids = streams.stream(named: "bids")
        var other = streams.stream(named: "latency")
        var drawn: [UInt64] = []
        for _ in 0..<8 {
            _ = other.next()
            drawn.append(bids.next())
        }
        #expect(drawn == expected)
        var otherSeed = RandomStreams(seed: 100).stream(named: "bids")
        #expect(otherSeed.next() != expected[0])
        var a = streams.stream(named: "a"), b = streams.stream(named: "b")
        #expect(a.next() != b.next())
    }

    @Test func belowStaysInRange() {
        var random = SimRandom(seed: 5)
        var seen = Set<Int>()
        for _ in 0..<1_000 {
            let value = random.below(7)
            #expect((0..<7).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 7)
    }
}
