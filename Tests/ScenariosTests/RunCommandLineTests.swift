@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import Testing

/// One builder makes every `rehearse run` replay line: a report's, a sweep page's and JUnit's for a
/// seed without an artifact, and `replay`'s crash re-run. A line that forgot the timing window or a
/// parameter would replay some other run.
@Suite struct RunCommandLineTests {
    init() { BuiltInScenarios.register() }

    @Test func aReportsReplayLineCarriesEverythingThatChangesTheRun() throws {
        let request = RunRequest(
            scenario: "seat-contention", seed: 7, strategy: .pct(depth: 2, horizon: 40), parameters: ["users": 4],
            variant: "seat-random-id", swarm: SwarmConfiguration.draw(seed: 7), timingWindowNanoseconds: 5_000_000)
        let report = try ScenarioRunner.run(request).report
        #expect(report.replayCommand
            == "rehearse run seat-contention --seed 7 --strategy pct:2:40 --timing-window 5000000ns --param users=4 --variant seat-random-id --swarm")
    }

    @Test func aSweepsReplayLineKeepsItsTimingWindowAndParameters() throws {
        let runner = try SweepRunner(template: RunRequest(
            scenario: "seat-contention", seed: 0, strategy: .portfolio, parameters: ["users": 3], timingWindowNanoseconds: 0), swarm: false, failureDirectory: nil)
        let result = try runner.emptyResult(range: SeedRange(low: 1, high: 3), shard: nil, build: BuildFingerprint(commit: "test"))
        let line = result.runCommandLine(seed: 2)
        #expect(line.arguments.contains("--timing-window") && line.arguments.contains("0ns"))
        #expect(line.description.hasPrefix("rehearse run seat-contention --seed 2 --strategy portfolio --timing-window 0ns --param "))
        #expect(line.description.contains("--param users=3"))
    }
}
