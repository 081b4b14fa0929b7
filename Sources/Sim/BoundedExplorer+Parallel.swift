#if canImport(Glibc)
import Glibc
#endif
import HeapModule
import Synchronization

extension BoundedExplorer {
    /// `explore` on `jobs` threads: the same schedules, counts and first failure, in less wall
    /// time. Each round's tree is split at every run: a run of prefix p offers each later choice
    /// point j an alternative a ≥ 1, and p + 0…0 + [a] is an independent subtree (the sequential
    /// search visits exactly these prefixes). Workers take the smallest pending prefix in the
    /// sequential order, which is the zero-padded lexicographic order; once a schedule fails, only
    /// prefixes before it still run, so the failure reported is the one the sequential search
    /// stops at, and the schedules counted are those up to it. Only a search stopped by
    /// `maxSchedules` may count differently (the workers stop together, not in order).
    public static func explore<Detail: Sendable>(
        preemptionBound: Int, maxSchedules: Int = 1_000_000, jobs: Int,
        progress: (@Sendable (_ round: Int, _ schedules: Int) -> Void)? = nil,
        run: @escaping @Sendable ([UInt32]) -> Run<Detail>
    ) -> Exploration<Detail> {
        precondition(preemptionBound >= 0 && maxSchedules > 0 && jobs >= 1, "a bound of at least 0, a positive schedule limit and a job")
        var exploration = Exploration<Detail>(
            preemptionBound: preemptionBound, ending: .complete, schedulesByPreemptions: [], runs: 0, completeBound: -1, failure: nil)
        for round in 0...preemptionBound {
            progress?(round, exploration.schedules)
            let search = ParallelRound<Detail>(bound: round, before: exploration.schedules, maxSchedules: maxSchedules, progress: progress)
            _ = SimulationPool.map(Array(0..<jobs), threads: jobs) { _ in search.work(run) }
            let outcome = search.outcome()
            exploration.schedulesByPreemptions.append(outcome.judged)
            exploration.runs += outcome.runs
            exploration.failure = outcome.failure
            guard outcome.ending == .complete else {
                exploration.ending = outcome.ending
                return exploration
            }
            exploration.completeBound = round
        }
        return exploration
    }
}

/// One round of the parallel search: the pending prefixes, what has run, and the first failure.
final class ParallelRound<Detail: Sendable>: @unchecked Sendable {
    /// A prefix still to run and the alternatives its parent saw at each of its choice points.
    struct Item: Comparable {
        var prefix: [UInt32]
        var counts: [UInt32]
        static func == (lhs: Item, rhs: Item) -> Bool { lhs.prefix == rhs.prefix }
        static func < (lhs: Item, rhs: Item) -> Bool { ParallelRound.precedes(lhs.prefix, rhs.prefix) }
    }

    private struct State {
        var pending = Heap<Item>()
        var active = 0
        var judged: [[UInt32]] = []
        var runs = 0
        var failure: (decisions: [UInt32], detail: Detail)?
        var nondeterministic: String?
        var stoppedAtLimit = false
    }

    let bound: Int
    let before: Int
    let maxSchedules: Int
    let progress: (@Sendable (Int, Int) -> Void)?
    private let state: Mutex<State>

    init(bound: Int, before: Int, maxSchedules: Int, progress: (@Sendable (Int, Int) -> Void)?) {
        self.bound = bound
        self.before = before
        self.maxSchedules = maxSchedules
        self.progress = progress
        var initial = State()
        initial.pending.insert(Item(prefix: [], counts: []))
        state = Mutex(initial)
    }

    /// Whether `a` runs before `b` in the sequential search: lexicographic, missing entries as 0
    /// (a deeper branch is taken first, and a prefix precedes its own subtree).
    static func precedes(_ a: [UInt32], _ b: [UInt32]) -> Bool {
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0, y = index < b.count ? b[index] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// One worker: takes the first pending prefix, runs it, files its result and its children,
    /// until nothing is pending or running, or the round must stop.
    func work(_ run: @Sendable ([UInt32]) -> BoundedExplorer.Run<Detail>) {
        while let item = take() {
            let result = run(item.prefix)
            file(item, result)
        }
    }

    /// The next prefix to run; nil when the round is over. Waits while others are still running.
    private func take() -> Item? {
        while true {
            let next: Item?? = state.withLock { state in
                if state.nondeterministic != nil || state.stoppedAtLimit { return .some(nil) }
                while let item = state.pending.popMin() {
                    if let failure = state.failure, !Self.precedes(item.prefix, failure.decisions) { continue }
                    state.active += 1
                    return .some(item)
                }
                return state.active == 0 ? .some(nil) : nil
            }
            if let next { return next }
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000)
            nanosleep(&pause, nil)
        }
    }

    /// Records `result` of `item` and queues the subtrees it opens.
    private func file(_ item: Item, _ result: BoundedExplorer.Run<Detail>) {
        let cost = item.prefix.count { $0 != 0 }
        let report: Int? = state.withLock { state in
            state.active -= 1
            state.runs += 1
            if let mismatch = Self.mismatch(result, item) {
                if state.nondeterministic == nil { state.nondeterministic = mismatch }
                return nil
            }
            var judgedNow: Int?
            if cost == bound {
                state.judged.append(item.prefix)
                judgedNow = before + state.judged.count
                if result.failed, state.failure.map({ Self.precedes(item.prefix, $0.decisions) }) ?? true {
                    state.failure = (item.prefix, result.detail)
                }
                if before + state.judged.count >= maxSchedules && state.failure == nil { state.stoppedAtLimit = true }
            }
            guard cost + 1 <= bound else { return judgedNow }
            for index in item.prefix.count..<result.choiceCounts.count {
                let counts = Array(result.choiceCounts[0...index])
                for alternative in 1..<max(1, result.choiceCounts[index]) {
                    var prefix = item.prefix
                    prefix.append(contentsOf: repeatElement(0, count: index - item.prefix.count))
                    prefix.append(UInt32(alternative))
                    if let failure = state.failure, !Self.precedes(prefix, failure.decisions) { continue }
                    state.pending.insert(Item(prefix: prefix, counts: counts))
                }
            }
            return judgedNow
        }
        if let report, report % 1_000 == 0 { progress?(bound, report) }
    }

    /// Why a run does not fit the alternatives its parent saw (nil: it fits).
    static func mismatch(_ result: BoundedExplorer.Run<Detail>, _ item: Item) -> String? {
        if result.diverged {
            return "the program offered fewer alternatives than a replayed decision asked for: it is not deterministic under a given schedule (system randomness, a real thread, state kept between runs)"
        }
        guard result.choiceCounts.count >= item.prefix.count else {
            return "the program ended after \(result.choiceCounts.count) choice points where an earlier run went past \(item.prefix.count): it is not deterministic under a given schedule"
        }
        for index in 0..<item.counts.count where result.choiceCounts[index] != item.counts[index] {
            return "choice point \(index) offered \(result.choiceCounts[index]) alternatives, \(item.counts[index]) in an earlier run with the same decisions before it: the program is not deterministic under a given schedule"
        }
        return nil
    }

    /// The round's result: schedules judged (up to the failure, as the sequential search counts
    /// them), runs, the failure and how it ended.
    func outcome() -> (judged: Int, runs: Int, failure: (decisions: [UInt32], preemptions: Int, detail: Detail)?, ending: BoundedExplorer.Ending) {
        state.withLock { state in
            if let message = state.nondeterministic { return (state.judged.count, state.runs, nil, .nondeterministic(message)) }
            if let failure = state.failure {
                let upTo = state.judged.count { !Self.precedes(failure.decisions, $0) }
                return (upTo, state.runs, (Self.trimmed(failure.decisions), bound, failure.detail), .failed)
            }
            return (state.judged.count, state.runs, nil, state.stoppedAtLimit ? .stoppedAtLimit : .complete)
        }
    }

    /// `decisions` without trailing defaults.
    static func trimmed(_ decisions: [UInt32]) -> [UInt32] {
        var trimmed = decisions
        while trimmed.last == 0 { trimmed.removeLast() }
        return trimmed
    }
}
