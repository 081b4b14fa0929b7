@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import Testing

/// Replay reproduces every failure artifact of a sweep at its step: the artifact's decisions log
/// (timing choices included) with its seed, swarm, parameters and window gives the same run.
@Suite struct ReplaySweepTests {
    init() { BuiltInScenarios.register() }

    static func replayAll(scenario: String, variant: String, seeds: ClosedRange<UInt64>, parameters: [String: Int] = [:]) throws -> (failures: Int, reproduced: Int) {
        let runner = try SweepRunner(
            template: RunRequest(scenario: scenario, seed: seeds.lowerBound, strategy: .portfolio, parameters: parameters, variant: variant),
            swarm: true, determinismEvery: 0, failureDirectory: nil)
        var failures = 0, reproduced = 0
        for seed in seeds {
            let (result, artifact) = try runner.run(seed: seed)
            guard let artifact else { continue }
            failures += 1
            // The sweep itself checked the artifact replays (what `fuzz` prints as "replay check").
            #expect(result.failure?.replayed == true, "\(scenario) \(variant) seed \(seed): the sweep's own replay check failed")
            let replay = try ScenarioRunner.execute(try artifact.replayRequest(gitCommit: nil)).report
            if replay.violation?.check == artifact.violation?.check, replay.violation?.step == artifact.violation?.step,
               replay.traceHash == artifact.traceHash {
                reproduced += 1
            } else {
                Issue.record("\(scenario) \(variant) seed \(seed) (\(artifact.strategy)): expected \(artifact.expectation) trace \(artifact.traceHash ?? "?"), replay gave \(replay.violation.map { "\($0.check) at step \($0.step)" } ?? "a pass") trace \(replay.traceHash)")
            }
        }
        return (failures, reproduced)
    }

    @Test func everyRawArtifactOfASeatSweepReplays() throws {
        let (failures, reproduced) = try Self.replayAll(scenario: "seat-contention", variant: "seat-random-id", seeds: 1...40)
        #expect(failures >= 10)
        #expect(reproduced == failures)
    }

    @Test func everyRawArtifactOfALikeStormSweepReplays() throws {
        let (failures, reproduced) = try Self.replayAll(
            scenario: "like-storm", variant: "unlike-nonliker-decrements", seeds: 1...12, parameters: ["users": 4, "actionsPerUser": 5])
        #expect(failures >= 4)
        #expect(reproduced == failures)
    }
}
