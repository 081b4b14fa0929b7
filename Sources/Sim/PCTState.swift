/// The state of the PCT strategy (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010,
/// Algorithm 1), counting steps at choice points only, as Coyote and shuttle do (the paper's
/// §4.1: a change point during sequential execution has the same effect at the next choice).
///
/// Tasks are the paper's threads: each new task gets a random priority above `depth`; at every
/// choice point the candidate of the highest-priority task is taken. `depth − 1` change points
/// k₁ … k_{d−1} are drawn uniformly from `1...horizon`; the task chosen at choice point kᵢ drops to
/// priority `i` after its step. The label follows the *draw* order, not the time order, so an
/// earlier demotion can outrank a later one (a bug that needs that order is found too).
struct PCTState {
    private var priorities: [UInt64: Int64] = [:]
    /// Choice point → the priority a task drops to there (1 … depth − 1).
    private let changePoints: [UInt64: Int64]
    private var random: SimRandom
    private let depth: Int
    /// Choice points seen so far.
    private(set) var choicePoints: UInt64 = 0

    init(depth: Int, horizon: Int, random: SimRandom) {
        precondition(depth >= 1, "PCT depth must be at least 1")
        precondition(horizon >= 1, "PCT horizon must be at least 1")
        self.depth = depth
        self.random = random
        var points: [UInt64: Int64] = [:]
        var label: Int64 = 1
        while points.count < min(depth - 1, horizon) {
            let point = UInt64(self.random.below(horizon)) + 1
            if points[point] == nil {
                points[point] = label
                label += 1
            }
        }
        changePoints = points
    }

    private mutating func priority(of task: UInt64) -> Int64 {
        if let known = priorities[task] { return known }
        // Initial priorities lie above every change-point priority (1 … depth−1).
        let assigned = Int64(depth) + Int64(random.next() >> 2)
        priorities[task] = assigned
        return assigned
    }

    /// The index among `count` candidates (whose tasks `task(i)` gives) to take at this choice
    /// point; ties go to the lower index (the older job, the earlier timer).
    mutating func choose(count: Int, task: (Int) -> UInt64) -> Int {
        choicePoints += 1
        var bestIndex = 0
        var bestTask: UInt64 = 0
        var bestPriority = Int64.min
        for index in 0..<count {
            let candidate = task(index)
            let value = priority(of: candidate)
            if value > bestPriority {
                bestPriority = value
                bestIndex = index
                bestTask = candidate
            }
        }
        if let lowered = changePoints[choicePoints] {
            priorities[bestTask] = lowered
        }
        return bestIndex
    }
}

/// The runtime's id of the task behind a job (0 for a job that is not a task, and for the job
/// `Task.yield()` enqueues: the scheduler attributes those to the task that was running).
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64
