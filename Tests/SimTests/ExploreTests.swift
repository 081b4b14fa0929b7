import KernelWorkloads
import Testing
@testable import Sim

/// A synthetic program for the enumerator alone: fixed alternatives at every choice point,
/// failing on the decisions logs `failing` names (trailing zeros trimmed).
struct SyntheticTree {
    var counts: [UInt32]
    var failing: Set<[UInt32]> = []

    func run(_ prefix: [UInt32]) -> BoundedExplorer.Run<[UInt32]> {
        var log = prefix
        while log.last == 0 { log.removeLast() }
        return BoundedExplorer.Run(choiceCounts: counts, failed: failing.contains(log), diverged: false, detail: prefix)
    }
}

@Suite struct ExploreTests {
    static func explore(_ program: ExploreProgram, bound: Int) -> BoundedExplorer.Exploration<SimulationResult<Bool>> {
        Simulation.explore(SimulationConfiguration(seed: 0), preemptionBound: bound, fails: { !$0.outcome.isSuccess || $0.output == true }) {
            await program.run()
        }
    }

    /// The enumerator alone: three binary choice points give C(3, j) schedules of cost j, each once.
    @Test func countsEverySchedulePerCostOnce() {
        let tree = SyntheticTree(counts: [2, 2, 2])
        var seen: [[UInt32]] = []
        let all = BoundedExplorer.explore(preemptionBound: 3) { prefix in
            seen.append(prefix)
            return tree.run(prefix)
        }
        #expect(all.ending == .complete)
        #expect(all.schedulesByPreemptions == [1, 3, 3, 1])
        let bounded = BoundedExplorer.explore(preemptionBound: 1) { tree.run($0) }
        #expect(bounded.schedulesByPreemptions == [1, 3])
        // Alternatives beyond 1 at a point cost one preemption, not more: [3, 3] has 1 + 4 + 4.
        let wide = BoundedExplorer.explore(preemptionBound: 2) { SyntheticTree(counts: [3, 3]).run($0) }
        #expect(wide.schedulesByPreemptions == [1, 4, 4])
        #expect(seen.count >= 8)
    }

    /// The first failure found has the fewest preemptions of any failing schedule, and its log is kept.
    @Test func findsTheCheapestFailureFirst() {
        let tree = SyntheticTree(counts: [2, 2, 2, 2], failing: [[1, 0, 0, 1], [0, 1, 1], [0, 0, 0, 1, 1, 1]])
        let result = BoundedExplorer.explore(preemptionBound: 3) { tree.run($0) }
        #expect(result.ending == .failed)
        #expect(result.failure?.preemptions == 2)
        #expect(result.completeBound == 1)
        #expect(result.summary.hasPrefix("failure in schedule"))
    }

    @Test func stopsAtTheScheduleLimitAndSaysWhatIsComplete() {
        let result = BoundedExplorer.explore(preemptionBound: 2, maxSchedules: 5) { SyntheticTree(counts: [2, 2, 2, 2]).run($0) }
        #expect(result.ending == .stoppedAtLimit)
        #expect(result.schedules == 5)
        #expect(result.completeBound == 1)
        #expect(result.summary.contains("≤ 1 complete"))
    }

    /// A program whose alternatives change between runs under the same prefix is named, not explored wrongly.
    @Test func refusesANondeterministicProgram() {
        var calls = 0
        let result = BoundedExplorer.explore(preemptionBound: 2) { prefix -> BoundedExplorer.Run<Void> in
            calls += 1
            return BoundedExplorer.Run(choiceCounts: calls > 2 ? [3, 2] : [2, 2], failed: false, diverged: false, detail: ())
        }
        guard case .nondeterministic(let message) = result.ending else {
            Issue.record("expected a nondeterminism stop, got \(result.ending)")
            return
        }
        #expect(message.contains("choice point 0"))
    }

    /// Every ported program with a bug fails at exactly its declared minimal number of
    /// preemptions, every schedule with fewer passing; the failing log replays to the failure.
    @Test(arguments: ExploreProgram.all.filter { $0.bugPreemptions != nil })
    func findsEachKnownBugAtItsMinimalBound(_ program: ExploreProgram) throws {
        let bound = try #require(program.bugPreemptions)
        let result = Self.explore(program, bound: bound)
        print("explore \(program.name): \(result.summary)")
        #expect(result.ending == .failed)
        let failure = try #require(result.failure)
        #expect(failure.preemptions == bound)
        #expect(result.completeBound == bound - 1)
        let replay = Simulation.run(SimulationConfiguration(seed: 0, strategy: .replay(decisions: failure.decisions))) { await program.run() }
        #expect(!replay.outcome.isSuccess || replay.output == true)
        #expect(replay.traceHash == failure.detail.traceHash)
    }

    /// The correct programs end with every schedule within the bound explored and none failing.
    @Test(arguments: ExploreProgram.all.filter { $0.bugPreemptions == nil })
    func provesTheFixedProgramsWithinTheBound(_ program: ExploreProgram) {
        let result = Self.explore(program, bound: 2)
        print("explore \(program.name): \(result.summary)")
        #expect(result.ending == .complete)
        #expect(result.completeBound == 2)
        #expect(result.schedulesByPreemptions[0] == 1)
        #expect(result.schedulesByPreemptions[2] > result.schedulesByPreemptions[1])
        #expect(result.summary.hasPrefix("all \(result.schedules) schedules with ≤ 2 preemptions explored: no failure"))
    }

    /// On two and four threads the search judges the same schedules per cost, stops at the same
    /// first failure (the one the sequential search meets first, not merely a cheapest one) and
    /// counts the schedules up to it as the sequential search does.
    @Test func aParallelSearchFindsWhatTheSequentialOneFinds() {
        let trees = [
            SyntheticTree(counts: [2, 2, 2, 2]),
            SyntheticTree(counts: [2, 3, 2, 2, 3], failing: [[1, 0, 0, 1], [0, 1, 1], [0, 0, 0, 1, 1], [0, 2, 0, 0, 1]]),
            SyntheticTree(counts: [2, 2, 2, 2, 2, 2], failing: [[0, 0, 0, 0, 1, 1], [1, 1]]),
        ]
        for tree in trees {
            let sequential = BoundedExplorer.explore(preemptionBound: 3) { tree.run($0) }
            for jobs in [2, 4] {
                let parallel = BoundedExplorer.explore(preemptionBound: 3, jobs: jobs) { tree.run($0) }
                #expect(parallel.ending == sequential.ending)
                #expect(parallel.schedulesByPreemptions == sequential.schedulesByPreemptions, "\(tree.counts) on \(jobs) jobs")
                #expect(parallel.failure?.decisions == sequential.failure?.decisions)
                #expect(parallel.completeBound == sequential.completeBound)
            }
        }
        for program in ExploreProgram.all {
            let bound = program.bugPreemptions ?? 2
            let sequential = Self.explore(program, bound: bound)
            let parallel = Simulation.explore(SimulationConfiguration(seed: 0), preemptionBound: bound, jobs: 2, fails: { !$0.outcome.isSuccess || $0.output == true }) {
                await program.run()
            }
            #expect(parallel.schedulesByPreemptions == sequential.schedulesByPreemptions, "\(program.name)")
            #expect(parallel.failure?.decisions == sequential.failure?.decisions, "\(program.name)")
        }
    }

    /// A program that reads state kept between runs offers other alternatives on a rerun: the
    /// search stops and says the program is not deterministic under a schedule.
    @Test func namesAProgramThatKeepsStateBetweenRuns() {
        let runs = RunCounter()
        let result = Simulation.explore(SimulationConfiguration(seed: 0), preemptionBound: 2) {
            let extra = runs.next() > 3 ? 2 : 0
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<(2 + extra) { group.addTask { await Simulation.point(); await Simulation.point() } }
            }
        }
        guard case .nondeterministic = result.ending else {
            Issue.record("expected a nondeterminism stop, got \(result.summary)")
            return
        }
    }
}

/// Counts runs across a search (state kept between runs: what makes a program unexplorable).
final class RunCounter: @unchecked Sendable {
    private var count = 0
    func next() -> Int {
        count += 1
        return count
    }
}

extension ExploreProgram: CustomTestStringConvertible {
    public var testDescription: String { name }
}
