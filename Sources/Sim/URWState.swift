/// The uniform random walk (URW) of "Selectively Uniform Concurrency Testing" (SURW, ASPLOS 2025,
/// its Algorithm 1 without the selective part): at each choice point a task is taken with
/// probability proportional to the number of steps it still has to run, which samples the
/// interleavings of tasks with known step counts uniformly (a uniform choice per step does not:
/// it favours schedules that switch early). A task's step count is estimated from a first run of
/// the same seed under `.nonpreemptive`, by the order in which tasks are first seen; a task the
/// estimate does not know weighs 1.
struct URWState {
    private var ordinals: [UInt64: Int] = [:]
    /// Events per task ordinal so far: jobs a running task enqueued for itself (a yield, a hop
    /// to another actor), the points where another task could have been run instead.
    private(set) var executed: [Int] = []
    private let estimates: [Int]
    private var random: SimRandom

    init(estimates: [Int], random: SimRandom) {
        self.estimates = estimates
        self.random = random
    }

    /// The ordinal of `task` (0, 1, … in order of first sight at a choice point or a run).
    mutating func ordinal(_ task: UInt64) -> Int {
        if let known = ordinals[task] { return known }
        let assigned = executed.count
        ordinals[task] = assigned
        executed.append(0)
        return assigned
    }

    /// Notes one event of `task`.
    mutating func ran(_ task: UInt64) {
        executed[ordinal(task)] += 1
    }

    /// Gives the candidates' tasks ordinals without choosing (the measuring run, so its ordinals
    /// are assigned by the same rule as the run that uses them).
    mutating func see(count: Int, task: (Int) -> UInt64) {
        for index in 0..<count { _ = ordinal(task(index)) }
    }

    /// The index among `count` candidates to take: weighted by each task's remaining steps.
    mutating func choose(count: Int, task: (Int) -> UInt64) -> Int {
        var total = 0
        for index in 0..<count { total += weight(task(index)) }
        var draw = random.below(total)
        for index in 0..<count {
            let w = weight(task(index))
            if draw < w { return index }
            draw -= w
        }
        preconditionFailure("URW: a draw below the total weight picks a candidate")
    }

    private mutating func weight(_ task: UInt64) -> Int {
        let index = ordinal(task)
        let estimate = index < estimates.count ? estimates[index] : 1
        return max(1, estimate - executed[index])
    }
}
