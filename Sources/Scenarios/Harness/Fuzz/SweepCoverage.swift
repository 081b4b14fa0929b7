
/// What a sweep exercised, beyond its verdict: per declared callable, trigger, scheduled job and
/// security rule, the invocations over all seeds (0: never exercised); per Sometimes goal, the
/// seeds that reached it; per strategy (a portfolio's members, PCT without its measured
/// horizon), the seeds that ran it and failed. Sums of integers, so a merge of shards equals one
/// machine's sweep. Optional in the sweep result (absent in older files).
package struct SweepCoverage: Sendable, Hashable, Codable {
    /// Seeds that ran one strategy, and how many of them failed.
    package struct StrategyCount: Sendable, Hashable, Codable {
        /// Seeds that ran the strategy.
        package var seeds: Int = 0
        /// Of those, seeds that failed.
        package var failures: Int = 0
    }

    /// Backend functions, triggers, jobs and rules, with how often they ran over the sweep.
    package var backend: [CoverageEntry] = []
    /// Goal → seeds that reached it.
    package var goalSeeds: [String: Int] = [:]
    /// Strategy → seeds run and failed.
    package var strategies: [String: StrategyCount] = [:]

    /// Coverage of no seeds.
    package init() {}

    /// The strategy name a seed's report gives, without PCT's measured horizon (`pct:3:417` → `pct:3`).
    package static func strategyFamily(_ strategy: String) -> String {
        let parts = strategy.split(separator: ":")
        return parts.first == "pct" && parts.count > 2 ? parts.prefix(2).joined(separator: ":") : strategy
    }

    /// Adds one seed.
    package mutating func add(_ seed: SweepSeedResult) {
        if let counts = seed.coverage { backend = CoverageEntry.combining(backend, counts) }
        for goal in seed.reached { goalSeeds[goal, default: 0] += 1 }
        if let strategy = seed.strategy {
            strategies[Self.strategyFamily(strategy), default: StrategyCount()].seeds += 1
            if !seed.passed { strategies[Self.strategyFamily(strategy), default: StrategyCount()].failures += 1 }
        }
    }

    /// Adds another shard's coverage.
    package mutating func add(_ other: SweepCoverage) {
        backend = CoverageEntry.combining(backend, other.backend)
        for (goal, seeds) in other.goalSeeds { goalSeeds[goal, default: 0] += seeds }
        for (strategy, count) in other.strategies {
            strategies[strategy, default: StrategyCount()].seeds += count.seeds
            strategies[strategy, default: StrategyCount()].failures += count.failures
        }
    }
}
