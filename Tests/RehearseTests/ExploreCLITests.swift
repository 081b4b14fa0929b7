import Foundation
import Testing

/// `rehearse explore` end to end, and the run limits a user sets on the command line.
@Suite struct ExploreCLITests {
    /// A planted bug is found with the fewest preemptions, written as an artifact that `replay`
    /// reproduces; the careful design over the same small world explores complete.
    @Test func exploreFindsAPlantedBugAndReplaysItAndCompletesOnTheCarefulDesign() throws {
        let small = ["--param", "users=2", "--param", "posts=1"]
        let careful = try rehearse(["explore", "like-storm", "--preemption-bound", "1", "--quiet"] + small)
        #expect(careful.status == 0, "\(careful.output)")
        #expect(careful.output.contains("schedules with ≤ 1 preemption explored: no failure"), "\(careful.output)")
        let bug = try rehearse(["explore", "like-storm", "--variant", "unlike-nonliker-decrements", "--preemption-bound", "1", "--quiet"] + small)
        #expect(bug.status == 1, "\(bug.output)")
        #expect(bug.output.contains("FAIL like-count-matches-likes"), "\(bug.output)")
        // Two threads: the same summary (schedule count, first failure) and the same decisions.
        let onTwo = try rehearse(["explore", "like-storm", "--variant", "unlike-nonliker-decrements", "--preemption-bound", "1", "--quiet", "--jobs", "2"] + small)
        let summary = { (output: String) in output.split(separator: "\n").filter { $0.hasPrefix("failure in") || $0.contains("decisions:") } }
        #expect(onTwo.status == 1 && summary(onTwo.output) == summary(bug.output), "\(onTwo.output)")
        let line = try #require(bug.output.split(separator: "\n").first { $0.contains("replay: rehearse replay ") })
        let artifact = String(line.split(separator: " ").last!)
        // The Swift call reads the same artifact.
        #expect(bug.output.contains("in Swift: Rehearsal.replay(LikeStormScenario(), artifact: \"\(artifact)\")"), "\(bug.output)")
        let replay = try rehearse(["replay", artifact])
        #expect(replay.status == 0 && replay.output.contains("reproduced: like-count-matches-likes"), "\(replay.output)")
    }

    @Test(arguments: [
        ["explore", "like-storm", "--preemption-bound", "99"], ["explore", "like-storm", "--max-schedules", "0"],
        ["explore", "like-storm", "--strategy", "random"], ["explore", "no-such-scenario"], ["explore", "like-storm", "--jobs", "0"],
        ["run", "like-storm", "--max-steps", "10"], ["run", "like-storm", "--stuck-job-limit", "2h"],
        ["run", "like-storm", "--max-virtual-time", "0s"],
    ])
    func badExploreAndLimitInputExitsTwoWithOneLine(arguments: [String]) throws {
        let (status, output) = try rehearse(arguments)
        #expect(status == 2, "\(arguments): \(output)")
        #expect(output.split(separator: "\n").count == 1, "\(arguments): \(output)")
    }

    /// A job that loops without an await is stopped by the watchdog, never a hang: it fails its
    /// run (exit 1, a line saying where) and the process goes on; in a sweep it is the failing
    /// seed's kernel failure and the sweep goes on. Past the budget of abandoned threads the
    /// process ends (exit 70).
    @Test func aJobThatNeverAwaitsFailsItsRunAndTheProcessGoesOn() throws {
        let run = try rehearse(["run", "crash-test", "--seed", "7", "--param", "spinSeed=7", "--stuck-job-limit", "1s"])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("stuck job: rehearsal watchdog: the simulation has run one job for 1.0 seconds"), "\(run.output)")
        #expect(run.output.contains("task root, nonisolated code"), "\(run.output)")
        #expect(run.output.contains("this run fails and its thread is abandoned"), "\(run.output)")
        let sweep = try rehearse(["fuzz", "crash-test", "--seeds", "4..<7", "--param", "spinSeed=5", "--stuck-job-limit", "5s", "--keep-going", "--quiet"])
        #expect(sweep.status == 1, "\(sweep.output)")
        #expect(sweep.output.contains("FAIL seed 5: kernel: stuck job: rehearsal watchdog"), "\(sweep.output)")
        #expect(sweep.output.contains("3 seeds run, 2 passed, 1 failed"), "\(sweep.output)")
        #expect(!sweep.output.contains("shrunk seed 5"), "\(sweep.output)")
        let many = try rehearse(["fuzz", "crash-test", "--seeds", "1..<5", "--param", "spinAll=1", "--stuck-job-limit", "1s", "--in-process", "--keep-going", "--no-shrink", "--quiet"])
        #expect(many.status == 70, "\(many.output)")
        #expect(many.output.contains("stopping the process (2 stuck runs already abandoned, each holding a core)"), "\(many.output)")
    }
}
