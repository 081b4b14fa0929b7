@testable import Harness
import ScenarioFixtures
import Sim
import Testing

/// The harness on its own, with a scenario of no app (the `crash-test` fixture): registration,
/// a sweep's verdict and its merge.
@Suite struct FixtureSweepTests {
    init() { ScenarioRegistry.registerHidden(CrashTestScenario()) }

    @Test func theFixtureIsHiddenFromTheCatalog() throws {
        #expect(!ScenarioRegistry.all.contains { $0.name == "crash-test" })
        #expect(try ScenarioRegistry.scenario(named: "crash-test").name == "crash-test")
    }

    /// Seeds 1..<5 with the check failing on seed 4 (and no crash seed in range): one failure,
    /// the sweep fails; the same seeds in two shards merge to the same counts.
    @Test func aSweepFailsOnItsFailingSeedAndShardsMergeToTheWhole() throws {
        let template = RunRequest(scenario: "crash-test", seed: 1, strategy: .random, parameters: ["crashSeed": 0, "failSeed": 4])
        let runner = try SweepRunner(template: template, swarm: false, determinismEvery: 0, failureDirectory: nil)
        func sweep(_ range: SeedRange) throws -> SweepResult {
            var result = try runner.emptyResult(range: range, shard: nil, build: BuildFingerprint(commit: "test"))
            for seed in range.seeds { result.add(try runner.run(seed: seed).result) }
            return result
        }
        let whole = try sweep(SeedRange(low: 1, high: 5))
        #expect(whole.seedsRun == 4 && whole.seedsPassed == 3 && !whole.passed)
        #expect(whole.failures.map(\.seed) == [4])
        let merged = try SweepResult.merge([try sweep(SeedRange(low: 1, high: 3)), try sweep(SeedRange(low: 3, high: 5))])
        #expect(merged.seedsRun == whole.seedsRun && merged.seedsPassed == whole.seedsPassed && merged.failures.map(\.seed) == [4])
    }

    @Test func seedRangesParseOnceAtTheEdge() throws {
        #expect(try SeedRange(parsing: "0..<1000") == SeedRange(low: 0, high: 1000))
        for bad in ["", "5..<2", "a..<b", "1...3", "0..<99999999999999999999"] {
            #expect(throws: ScenarioError.self, "\(bad)") { _ = try SeedRange(parsing: bad) }
        }
    }
}
