import Sim

/// Explores every schedule of one scenario run with at most a given number of preemptions
/// (`BoundedExplorer`): the seed, parameters, variant and world stay fixed (so the data and the
/// fault dice do), the schedule is enumerated. What `rehearse explore` and
/// `Rehearsal.explore(_:)` run.
package enum ScenarioExplorer {
    /// Explores `request` (prepared once) up to `preemptionBound`, judging at most `maxSchedules`
    /// schedules; the failing schedule's execution is kept (`Exploration.failure`).
    package static func explore(
        _ request: RunRequest, preemptionBound: Int, maxSchedules: Int, jobs: Int = 1,
        progress: (@Sendable (_ round: Int, _ schedules: Int) -> Void)? = nil
    ) throws(ScenarioError) -> BoundedExplorer.Exploration<ScenarioRunner.Execution> {
        let prepared = try ScenarioRunner.prepare(request)
        if jobs > 1 {
            // The same search on `jobs` threads (BoundedExplorer+Parallel): same schedules, same first failure.
            return BoundedExplorer.explore(preemptionBound: preemptionBound, maxSchedules: maxSchedules, jobs: jobs, progress: progress) { prefix in
                let execution = ScenarioRunner.execute(prepared.exploring(prefix))
                return BoundedExplorer.Run(
                    choiceCounts: execution.choiceCounts, failed: !execution.report.passed,
                    diverged: execution.replayDivergence != nil, detail: execution)
            }
        }
        return BoundedExplorer.explore(preemptionBound: preemptionBound, maxSchedules: maxSchedules, progress: progress) { prefix in
            let execution = ScenarioRunner.execute(prepared.exploring(prefix))
            return BoundedExplorer.Run(
                choiceCounts: execution.choiceCounts, failed: !execution.report.passed,
                diverged: execution.replayDivergence != nil, detail: execution)
        }
    }
}
