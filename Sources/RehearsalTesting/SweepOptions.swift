import Harness
import Sim

/// How a sweep searches, the same for a closure and a scenario, `sweep` and `expectFailure`: the
/// strategies each seed runs under, how often a seed runs twice, what a shrink may spend. One value
/// a suite can share (`let quick = SweepOptions(strategies: [.random])`); the seeds, limits and a
/// scenario's inputs are labels of each call.
public struct SweepOptions: Sendable, Hashable {
    /// The strategies each seed runs under, in order.
    public var strategies: [SchedulingStrategy]
    /// One seed in this many (by a hash of the seed) runs twice and must give the same trace; 0:
    /// none. `expectFailure` runs each seed once: it looks for the failure, not for a second run.
    public var determinismEvery: Int
    /// Runs a shrink may spend (decisions, and a scenario's parameters).
    public var maxShrinkRuns: Int
    /// Schedules the search for fewer preemptions may judge after a shrink (`ScheduleSearch`);
    /// 0: no search (the shrinker's schedule is reported as not proven minimal).
    public var minimalScheduleBudget: Int
    /// Where a scenario's shrunk failure is written as a replayable artifact
    /// (`<folder>/<scenario>/failures/…shrunk.json`, relative to the working directory, as
    /// `rehearse fuzz` writes them); nil: none (the failure then prints only a Swift call).
    public var artifactFolder: String?

    /// Options with the defaults `Rehearsal` names.
    public init(
        strategies: [SchedulingStrategy] = Rehearsal.defaultStrategies,
        determinismEvery: Int = Rehearsal.defaultDeterminismEvery,
        maxShrinkRuns: Int = Rehearsal.defaultMaxShrinkRuns, minimalScheduleBudget: Int = Rehearsal.defaultMinimalScheduleBudget,
        artifactFolder: String? = "reports"
    ) {
        precondition(minimalScheduleBudget >= 0, "a schedule budget is not negative")
        precondition(artifactFolder?.isEmpty != true, "an artifact folder is a path (nil: none)")
        self.artifactFolder = artifactFolder
        self.strategies = strategies
        self.determinismEvery = determinismEvery
        self.maxShrinkRuns = maxShrinkRuns
        self.minimalScheduleBudget = minimalScheduleBudget
    }
}

extension SweepOptions {
    /// These options without determinism samples (what `expectFailure` runs).
    var runningEachSeedOnce: SweepOptions {
        var options = self
        options.determinismEvery = 0
        return options
    }
}
