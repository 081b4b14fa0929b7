import FirebaseHarness
import Harness
import Sim

extension BugZoo {
    /// How fast each way of picking worlds finds a bug, as `rehearse fuzz` runs it: the portfolio
    /// strategy, faults swarmed, none of the bug's own parameters.
    public struct WorldComparison: Sendable, Codable {
        /// The bug's variant.
        public var variant: String
        /// What the bug needs.
        public var needs: String
        /// `--world default`, `swarm` and `guided`, in that order.
        public var results: [StrategyResult]
    }

    /// Measures `bug` over seeds 1...`seeds` in the default world, a world swarm and a guided
    /// swarm (blocks of `WorldGuide.blockSize` from seed 1, as a sweep from seed 1 runs them).
    public static func compareWorlds(_ bug: Bug, seeds: Int, threads: Int = 1) throws(ScenarioError) -> WorldComparison {
        precondition(seeds >= 1, "the zoo needs at least one seed per bug")
        let template = RunRequest(scenario: bug.scenario, seed: 1, strategy: .portfolio, variant: bug.variant)
        let prepared = try ScenarioRunner.prepare(template)
        var results: [StrategyResult] = []
        for mode in [WorldMode.default, .swarm, .guided] {
            var runner = SweepRunner(prepared: prepared, swarm: true, determinismEvery: 0, failureDirectory: nil)
            runner.world = mode
            let failed = mode == .guided ? guidedFailures(runner, seeds: seeds, threads: threads) : failures(runner, UInt64(1)...UInt64(seeds), threads: threads).map(\.failed)
            let first = failed.firstIndex(of: true)
            results.append(StrategyResult(strategy: mode.rawValue, seeds: seeds, hits: failed.filter { $0 }.count, firstFailure: first.map { $0 + 1 }))
        }
        return WorldComparison(variant: bug.variant, needs: bug.needs, results: results)
    }

    /// Each seed's verdict and what it reached, in seed order.
    static func failures(_ runner: SweepRunner, _ seeds: ClosedRange<UInt64>, threads: Int) -> [(failed: Bool, sample: GuideSample)] {
        SimulationPool.map(seeds.map { $0 }, threads: threads) { (seed: UInt64) -> (failed: Bool, sample: GuideSample) in
            let run = runner.prepared(seed: seed)
            let report = ScenarioRunner.execute(run).report
            var result = SweepSeedResult(
                seed: seed, passed: report.passed, failure: nil, reached: report.checks.filter { $0.kind == .sometimes && $0.status == .reached }.map(\.name),
                checked: report.checks.filter { $0.kind != .sometimes && $0.observations > 0 }.map(\.name), deterministic: nil, histograms: [:])
            result.coverage = report.coverage
            return (!report.passed, GuideSample(seed: seed, world: run.request.world ?? World(), keys: WorldGuide.keys(result)))
        }
    }

    /// A guided sweep's verdicts, block by block: the blind seeds, then the guided ones on their corpus.
    static func guidedFailures(_ runner: SweepRunner, seeds: Int, threads: Int) -> [Bool] {
        var verdicts: [Bool] = []
        var block: UInt64 = 1
        while block <= UInt64(seeds) {
            let blindEnd = min(block + WorldGuide.blindSeeds, UInt64(seeds) + 1)
            let blind = failures(runner, block...(blindEnd - 1), threads: threads)
            verdicts += blind.map(\.failed)
            let blockEnd = min(block + WorldGuide.blockSize, UInt64(seeds) + 1)
            if blindEnd < blockEnd {
                let corpus = WorldGuide.corpus(blind.map(\.sample))
                var guided = runner
                for seed in blindEnd..<blockEnd {
                    guided.chosenWorlds[seed] = WorldGuide.world(
                        seed: seed, corpus: corpus, scenario: runner.prepared.scenario, pinned: runner.template.parameters,
                        drawsFaults: true, blind: runner.world(seed: seed))
                }
                verdicts += failures(guided, blindEnd...(blockEnd - 1), threads: threads).map(\.failed)
            }
            block = blockEnd
        }
        return verdicts
    }
}
