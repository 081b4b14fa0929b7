/// The state of the PCT strategy (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010).
///
/// Tasks are the "threads": each new task gets a random priority above `depth`; the ready job of
/// the highest-priority task runs; at each of `depth − 1` change points (steps drawn uniformly in
/// `0..<horizon`) the task about to run drops to priority `i`, below every initial priority.
struct PCTState {
    private var priorities: [UInt64: Int64] = [:]
    private var changePoints: [UInt64]
    private var nextChange = 0
    private var random: SimRandom
    private let depth: Int

    init(depth: Int, horizon: Int, random: SimRandom) {
        precondition(depth >= 1, "PCT depth must be at least 1")
        precondition(horizon >= 1, "PCT horizon must be at least 1")
        self.depth = depth
        self.random = random
        var points = Set<UInt64>()
        while points.count < min(depth - 1, horizon) {
            points.insert(UInt64(self.random.below(horizon)))
        }
        changePoints = points.sorted()
    }

    private mutating func priority(of task: UInt64) -> Int64 {
        if let known = priorities[task] { return known }
        // Initial priorities lie above every change-point priority (1 … depth−1).
        let assigned = Int64(depth) + Int64(random.next() >> 2)
        priorities[task] = assigned
        return assigned
    }

    private mutating func highest(among ready: borrowing Deque<Scheduler.ReadyJob>) -> (index: Int, task: UInt64) {
        var bestIndex = 0
        var bestTask: UInt64 = 0
        var bestPriority = Int64.min
        for index in ready.indices {
            let task = jobTaskID(ready[index].job)
            let value = priority(of: task)
            if value > bestPriority {
                bestPriority = value
                bestIndex = index
                bestTask = task
            }
        }
        return (bestIndex, bestTask)
    }

    /// The index of the job to run at `step`.
    mutating func choose(among ready: borrowing Deque<Scheduler.ReadyJob>, step: UInt64) -> Int {
        var choice = highest(among: ready)
        while nextChange < changePoints.count, changePoints[nextChange] <= step {
            nextChange += 1
            priorities[choice.task] = Int64(nextChange)
            choice = highest(among: ready)
        }
        return choice.index
    }
}

import DequeModule

/// The runtime's id of the task behind a job (0 for a job that is not a task).
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64
