import Testing
@testable import Sim

/// A log actor: every append is a hop, hence a scheduling point.
actor EventLog: SimActor {
    nonisolated let simExecutor = SimExecutor("log")
    var events: [String] = []
    func add(_ event: String) { events.append(event) }
}

/// A planted ordering bug of depth 2: it shows only if task A's 20th step precedes B's only step
/// AND B's step precedes C's only step (two ordering constraints). Random scheduling must keep
/// C waiting through twenty-odd choices; PCT needs just the right priority order.
func plantedDepthTwoBug() async -> Bool {
    let log = EventLog()
    await withTaskGroup(of: Void.self) { group in
        group.addTask { for step in 1...20 { await log.add("a\(step)") } }
        group.addTask { await log.add("b") }
        group.addTask { await log.add("c") }
        for noise in 0..<3 {
            group.addTask { for step in 1...5 { await log.add("n\(noise).\(step)") } }
        }
    }
    let events = await log.events
    let a20 = events.firstIndex(of: "a20")!, b = events.firstIndex(of: "b")!, c = events.firstIndex(of: "c")!
    return a20 < b && b < c
}

@Suite struct PCTTests {
    /// Over the same 300 seeds, PCT hits the planted bug far more often than uniform random,
    /// and needs fewer seeds to hit it first.
    @Test func pctFindsADepthTwoBugFasterThanRandom() {
        func hits(_ strategy: SchedulingStrategy) -> [UInt64] {
            (UInt64(0)..<300).filter { seed in
                Simulation.run(SimulationConfiguration(seed: seed, strategy: strategy)) { await plantedDepthTwoBug() }.output == true
            }
        }
        let random = hits(.random)
        let pct = hits(.pct(depth: 2, horizon: 100))
        let firstRandom = random.first.map { Int($0) + 1 } ?? Int.max
        let firstPCT = pct.first.map { Int($0) + 1 } ?? Int.max
        print("planted depth-2 bug over 300 seeds: random hit \(random.count) (first at seed #\(firstRandom)), PCT(d=2) hit \(pct.count) (first at seed #\(firstPCT))")
        #expect(pct.count > 3 * max(1, random.count))
        #expect(firstPCT < firstRandom)
    }

    @Test func parsesStrategies() {
        #expect(SchedulingStrategy(parsing: "fifo") == .fifo)
        #expect(SchedulingStrategy(parsing: "pct:3") == .pct(depth: 3, horizon: nil))
        #expect(SchedulingStrategy(parsing: "pct:3")?.description == "pct:3")
        #expect(SchedulingStrategy(parsing: "portfolio") == .portfolio)
        #expect(SchedulingStrategy(parsing: "nonpreemptive") == .nonpreemptive)
        #expect(SchedulingStrategy.portfolio.resolved(forSeed: 7) == .pct(depth: 2, horizon: nil))
        #expect(SchedulingStrategy.portfolio.resolved(forSeed: 8) == .pct(depth: 3, horizon: nil))
        #expect(SchedulingStrategy.portfolio.resolved(forSeed: 10) == .random)
        #expect(SchedulingStrategy.portfolio.resolved(forSeed: 9) == .nonpreemptive)
        #expect(SchedulingStrategy(parsing: "pct:2:0") == nil)
        #expect(SchedulingStrategy(parsing: "pct:2:50") == .pct(depth: 2, horizon: 50))
        #expect(SchedulingStrategy(parsing: "pct:0") == nil)
        #expect(SchedulingStrategy(parsing: "lifo") == nil)
        #expect(SchedulingStrategy(parsing: "random:1") == nil)
    }
}

/// A counter incremented by read-then-write over two hops: a lost update needs at least one
/// preemption between some task's read and its write.
actor SplitCounter: SimActor {
    nonisolated let simExecutor = SimExecutor("counter")
    var value = 0
    func read() -> Int { value }
    func write(_ newValue: Int) { value = newValue }
}

func lostUpdateRace() async -> Int {
    let counter = SplitCounter()
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<6 {
            group.addTask {
                for _ in 0..<5 {
                    let seen = await counter.read()
                    await counter.write(seen + 1)
                }
            }
        }
    }
    return await counter.value
}

@Suite struct ShrinkerTests {
    /// The non-preemptive default schedule loses no update; a random schedule that loses one
    /// shrinks to a few preemptions, and the shrunk log still loses an update on replay.
    @Test func shrinksAFailingScheduleToFewPreemptions() {
        let clean = Simulation.run(SimulationConfiguration(seed: 0, strategy: .replay(decisions: []))) { await lostUpdateRace() }
        #expect(clean.output == 30)
        let seed = (UInt64(0)..<100).first { seed in
            Simulation.run(SimulationConfiguration(seed: seed, strategy: .random)) { await lostUpdateRace() }.output != 30
        }!
        let failing = Simulation.run(SimulationConfiguration(seed: seed, strategy: .random)) { await lostUpdateRace() }
        let outcome = DecisionShrinker.shrink(
            SimulationConfiguration(seed: seed), decisions: failing.decisions,
            stillFails: { (result: SimulationResult<Int>) in result.output != 30 }
        ) { await lostUpdateRace() }
        print("shrinker: lost update at seed \(seed): \(outcome.preemptionsBefore) → \(outcome.preemptionsAfter) preemptions in \(outcome.runs) runs")
        #expect(outcome.preemptionsBefore > 10)
        #expect(outcome.preemptionsAfter >= 1)
        #expect(outcome.preemptionsAfter <= 3)
        let replayed = Simulation.run(SimulationConfiguration(seed: seed, strategy: .replay(decisions: outcome.decisions))) { await lostUpdateRace() }
        #expect(replayed.output != 30)
    }
}
