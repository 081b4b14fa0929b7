/// Exhaustive bounded search: visits every schedule of a program with at most `preemptionBound`
/// non-default choices, as CHESS's iterative context bounding does (Musuvathi & Qadeer, PLDI
/// 2007), by stateless depth-first search over decisions logs (shuttle's and loom's DFS).
///
/// A schedule is a decisions log: a prefix replayed with `.replay(decisions:)`, then the default
/// choice (0) at every later choice point. Its cost is its number of non-zero decisions, the
/// unit the shrinker minimises and the replay line prints: a preemption of a task that could go
/// on, a delay of the oldest ready job, or a later timer fired first within the timing window.
/// Round j visits every schedule of cost ≤ j and judges those of cost exactly j, so the first
/// failure found has the fewest preemptions any failure has. No partial-order reduction: with a
/// bound, pruning by independence can skip the only schedule within the bound that fails
/// (Coons, Musuvathi & McKinley, OOPSLA 2013), so every schedule within the bound is run.
///
/// The search needs the program deterministic under a given log: each run must offer the same
/// alternatives at the choice points its prefix fixes. When it does not, the search stops and
/// says where (loom: "is the model fully deterministic?").
public enum BoundedExplorer {
    /// What one run of the program under a prefix gave the search.
    public struct Run<Detail> {
        /// The alternatives at each choice point of the run, in log order.
        public var choiceCounts: [UInt32]
        /// Whether the run failed (the search stops at the first failure).
        public var failed: Bool
        /// Whether the replayed prefix asked for a choice the run did not offer.
        public var diverged: Bool
        /// What the caller keeps of a failing run (its report, its result).
        public var detail: Detail

        /// A run with every field given.
        public init(choiceCounts: [UInt32], failed: Bool, diverged: Bool, detail: Detail) {
            self.choiceCounts = choiceCounts
            self.failed = failed
            self.diverged = diverged
            self.detail = detail
        }
    }

    /// How a search ended.
    public enum Ending: Sendable, Hashable {
        /// Every schedule within the bound ran and none failed.
        case complete
        /// A schedule failed (`Exploration.failure`).
        case failed
        /// `maxSchedules` schedules ran before the search was complete.
        case stoppedAtLimit
        /// The program offered different alternatives under the same prefix (the message says where).
        case nondeterministic(String)
    }

    /// The search's result.
    public struct Exploration<Detail> {
        /// The bound asked for.
        public var preemptionBound: Int
        /// How the search ended.
        public var ending: Ending
        /// Distinct schedules judged, by their number of preemptions (index 0: none).
        public var schedulesByPreemptions: [Int]
        /// Runs made (a round re-runs the cheaper schedules to reach its own).
        public var runs: Int
        /// The highest bound whose every schedule was judged (-1: not even the default schedule).
        public var completeBound: Int
        /// The failing schedule: its decisions log (trailing defaults trimmed), preemptions and detail.
        public var failure: (decisions: [UInt32], preemptions: Int, detail: Detail)?

        /// Distinct schedules judged.
        public var schedules: Int { schedulesByPreemptions.reduce(0, +) }

        /// One line: "all 122 schedules with ≤ 2 preemptions explored: no failure (by preemptions 1 / 11 / 110; 135 runs)".
        public var summary: String {
            let byCost = "by preemptions " + schedulesByPreemptions.map(String.init).joined(separator: " / ") + "; \(runs) runs"
            switch ending {
            case .complete:
                return "all \(schedules) schedules with ≤ \(preemptionBound) preemption\(preemptionBound == 1 ? "" : "s") explored: no failure (\(byCost))"
            case .failed:
                let preemptions = failure?.preemptions ?? 0
                return "failure in schedule \(schedules) (\(preemptions) preemption\(preemptions == 1 ? "" : "s"); every schedule with fewer passed; \(byCost))"
            case .stoppedAtLimit:
                let complete = completeBound < 0 ? "no bound complete" : "≤ \(completeBound) complete"
                return "stopped at \(schedules) schedules (the limit): \(complete), ≤ \(preemptionBound) not: no failure so far (\(byCost))"
            case .nondeterministic(let message):
                return "stopped: \(message) (\(byCost))"
            }
        }
    }

    /// One frame of the search: the decision taken at a choice point and how many it had.
    struct Frame {
        var decision: UInt32
        var count: UInt32
    }

    /// Explores every schedule with at most `preemptionBound` non-default choices, judging at most
    /// `maxSchedules`; `run` runs the program under a decisions prefix. `progress` hears each
    /// round's start and every 1,000th schedule.
    public static func explore<Detail>(
        preemptionBound: Int, maxSchedules: Int = 1_000_000,
        progress: ((_ round: Int, _ schedules: Int) -> Void)? = nil,
        run: ([UInt32]) -> Run<Detail>
    ) -> Exploration<Detail> {
        precondition(preemptionBound >= 0 && maxSchedules > 0, "a bound of at least 0 and a positive schedule limit")
        var exploration = Exploration<Detail>(
            preemptionBound: preemptionBound, ending: .complete, schedulesByPreemptions: [], runs: 0, completeBound: -1, failure: nil)
        for round in 0...preemptionBound {
            progress?(round, exploration.schedules)
            exploration.schedulesByPreemptions.append(0)
            let ending = exploreRound(round, maxSchedules: maxSchedules, into: &exploration, progress: progress, run: run)
            guard ending == .complete else {
                exploration.ending = ending
                return exploration
            }
            exploration.completeBound = round
        }
        return exploration
    }

    /// Round `bound`: every schedule of cost ≤ `bound` is run, those of cost exactly `bound` judged.
    static func exploreRound<Detail>(
        _ bound: Int, maxSchedules: Int, into exploration: inout Exploration<Detail>,
        progress: ((Int, Int) -> Void)?, run: ([UInt32]) -> Run<Detail>
    ) -> Ending {
        var stack: [Frame] = []
        var prefixLength = 0
        while true {
            let prefix = stack.prefix(prefixLength).map(\.decision)
            let result = run(prefix)
            exploration.runs += 1
            if let mismatch = mismatch(result, stack: stack, prefixLength: prefixLength) { return .nondeterministic(mismatch) }
            stack.removeSubrange(prefixLength...)
            stack += result.choiceCounts.dropFirst(prefixLength).map { Frame(decision: 0, count: $0) }
            let cost = prefix.count { $0 != 0 }
            if cost == bound {
                exploration.schedulesByPreemptions[bound] += 1
                if exploration.schedules % 1_000 == 0 { progress?(bound, exploration.schedules) }
                if result.failed {
                    exploration.failure = (Array(prefix), cost, result.detail)
                    return .failed
                }
            }
            guard let next = nextBranch(stack, bound: bound) else { return .complete }
            if exploration.schedules >= maxSchedules { return .stoppedAtLimit }
            stack[next].decision += 1
            prefixLength = next + 1
        }
    }

    /// Why a run does not fit the frames its prefix came from (nil: it fits).
    static func mismatch<Detail>(_ result: Run<Detail>, stack: [Frame], prefixLength: Int) -> String? {
        if result.diverged {
            return "the program offered fewer alternatives than a replayed decision asked for: it is not deterministic under a given schedule (system randomness, a real thread, state kept between runs)"
        }
        guard result.choiceCounts.count >= prefixLength else {
            return "the program ended after \(result.choiceCounts.count) choice points where an earlier run went past \(prefixLength): it is not deterministic under a given schedule"
        }
        for index in 0..<prefixLength where result.choiceCounts[index] != stack[index].count {
            return "choice point \(index) offered \(result.choiceCounts[index]) alternatives, \(stack[index].count) in an earlier run with the same decisions before it: the program is not deterministic under a given schedule"
        }
        return nil
    }

    /// The deepest frame that can take its next alternative within `bound` (nil: the round is done).
    static func nextBranch(_ stack: [Frame], bound: Int) -> Int? {
        var costBefore = stack.count { $0.decision != 0 }
        for index in stack.indices.reversed() {
            let frame = stack[index]
            if frame.decision != 0 { costBefore -= 1 }
            // Moving 0 → 1 adds a preemption; moving d → d+1 (d ≥ 1) keeps the cost.
            guard frame.decision + 1 < frame.count, costBefore + 1 <= bound else { continue }
            return index
        }
        return nil
    }
}

extension Simulation {
    /// The same search on `jobs` threads (`BoundedExplorer.explore(…jobs:…)`): the same schedules,
    /// counts and first failure.
    public static func explore<Output: Sendable>(
        _ configuration: SimulationConfiguration, preemptionBound: Int, maxSchedules: Int = 1_000_000, jobs: Int,
        fails: @escaping @Sendable (SimulationResult<Output>) -> Bool = { !$0.outcome.isSuccess },
        progress: (@Sendable (_ round: Int, _ schedules: Int) -> Void)? = nil,
        _ body: @escaping @Sendable () async throws -> Output
    ) -> BoundedExplorer.Exploration<SimulationResult<Output>> {
        BoundedExplorer.explore(preemptionBound: preemptionBound, maxSchedules: maxSchedules, jobs: jobs, progress: progress) { prefix in
            exploreRun(prefix, configuration, fails: fails, body)
        }
    }

    /// Runs `body` under every schedule with at most `preemptionBound` preemptions (see
    /// `BoundedExplorer`), from `configuration`'s seed (its named random streams stay fixed: the
    /// search covers scheduling, not data). A run fails when `fails` says so (default: any outcome
    /// but `.finished`); the exploration keeps the failing run's result.
    public static func explore<Output: Sendable>(
        _ configuration: SimulationConfiguration, preemptionBound: Int, maxSchedules: Int = 1_000_000,
        fails: @escaping (SimulationResult<Output>) -> Bool = { !$0.outcome.isSuccess },
        progress: ((_ round: Int, _ schedules: Int) -> Void)? = nil,
        _ body: @escaping @Sendable () async throws -> Output
    ) -> BoundedExplorer.Exploration<SimulationResult<Output>> {
        BoundedExplorer.explore(preemptionBound: preemptionBound, maxSchedules: maxSchedules, progress: progress) { prefix in
            exploreRun(prefix, configuration, fails: fails, body)
        }
    }

    /// One run of the search: `configuration` replaying `prefix`, then the default choice.
    private static func exploreRun<Output: Sendable>(
        _ prefix: [UInt32], _ configuration: SimulationConfiguration, fails: (SimulationResult<Output>) -> Bool,
        _ body: @escaping @Sendable () async throws -> Output
    ) -> BoundedExplorer.Run<SimulationResult<Output>> {
        var replay = configuration
        replay.strategy = .replay(decisions: prefix)
        replay.recordsChoices = true
        let result = Simulation.run(replay, body)
        return BoundedExplorer.Run(
            choiceCounts: result.choiceCounts, failed: fails(result), diverged: result.replayDivergence != nil, detail: result)
    }
}
