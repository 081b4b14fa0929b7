import FirebaseHarness
@testable import Harness
import RehearsalTestSupport
import Scenarios
import Sim
import Testing

/// The world swarm: every scenario's declarations admit the worlds it draws (each builds), draws
/// are a function of the seed, pinned parameters are never drawn, the mix favours defaults and
/// edges as documented, costly worlds are rare, and a guided corpus keeps novelty in seed order.
@Suite struct WorldDrawTests {
    init() { BuiltInScenarios.register() }

    /// 10,000 worlds of every scenario build: no declaration admits a draw its constraints refuse.
    @Test(.ciOnly, .tags(.slow), arguments: BuiltInScenarios.all.map(\.name))
    func tenThousandWorldsOfEveryScenarioBuild(scenario name: String) throws {
        let scenario = try ScenarioRegistry.scenario(named: name)
        for seed in UInt64(0)..<10_000 {
            let world = try #require(WorldDraw.draw(seed: seed, scenario: scenario, pinned: [:], drawsFaults: true), "\(name) seed \(seed): no world")
            var request = RunRequest(scenario: name, seed: seed)
            request.world = world
            #expect(throws: Never.self, "\(name) seed \(seed): \(world)") { _ = try ScenarioRunner.prepare(request) }
        }
    }

    /// The same, 300 worlds a scenario, for the default test run.
    @Test(arguments: BuiltInScenarios.all.map(\.name))
    func worldsOfEveryScenarioBuild(scenario name: String) throws {
        let scenario = try ScenarioRegistry.scenario(named: name)
        for seed in UInt64(0)..<300 {
            var request = RunRequest(scenario: name, seed: seed)
            request.world = try #require(WorldDraw.draw(seed: seed, scenario: scenario, pinned: [:], drawsFaults: true))
            _ = try ScenarioRunner.prepare(request)
        }
    }

    @Test func aWorldIsAFunctionOfTheSeedAndKeepsPinnedParameters() throws {
        let scenario = try ScenarioRegistry.scenario(named: "auction-race")
        let worlds = (UInt64(0)..<200).map { WorldDraw.draw(seed: $0, scenario: scenario, pinned: ["bidders": 7], drawsFaults: true)! }
        #expect(worlds == (UInt64(0)..<200).map { WorldDraw.draw(seed: $0, scenario: scenario, pinned: ["bidders": 7], drawsFaults: true)! })
        #expect(worlds.allSatisfy { $0.parameters["bidders"] == nil }, "a pinned parameter is never drawn")
        #expect(Set(worlds).count > 190, "seeds draw different worlds")
        #expect(worlds.contains { !$0.outages.isEmpty } && worlds.contains { !$0.faults.isEmpty })
    }

    /// About a third of a share's draws keep the default; sizes move less often; both reach the
    /// ends of their ranges.
    @Test func drawsMixDefaultsUniformAndEdges() throws {
        let storm = try ScenarioRegistry.scenario(named: "like-storm")
        let share = try #require(storm.parameters.first { $0.name == "doubleTapPercent" })
        let shares = (UInt64(0)..<3_000).map { WorldDraw.draw(seed: $0, scenario: storm, pinned: [:], drawsFaults: false)!.parameters[share.name] ?? share.defaultValue }
        let defaults = shares.filter { $0 == share.defaultValue }.count
        #expect(defaults > 800 && defaults < 1_500, "\(defaults) of 3,000 at the default")
        #expect(shares.contains(share.minimum) && shares.contains(share.maximum))
        let scenario = try ScenarioRegistry.scenario(named: "seat-contention")
        let spec = try #require(scenario.parameters.first { $0.name == "seats" })
        let values = (UInt64(0)..<3_000).map { WorldDraw.draw(seed: $0, scenario: scenario, pinned: [:], drawsFaults: false)!.parameters["seats"] ?? spec.defaultValue }
        #expect(values.filter { $0 != spec.defaultValue }.count > 300, "sizes move in some worlds")
        #expect(values.contains(spec.minimum) && values.contains(spec.maximum))
        // Related pairs are drawn equal now and then (seats against users).
        let worlds = (UInt64(0)..<3_000).map { WorldDraw.draw(seed: $0, scenario: scenario, pinned: [:], drawsFaults: false)! }
        let equal = worlds.filter { ($0.parameters["seats"] ?? 4) == ($0.parameters["users"] ?? 10) }.count
        #expect(equal > 60, "\(equal) worlds with seats == users")
    }

    /// The mean estimated cost of a scenario's worlds stays within a small multiple of the default world's.
    @Test(arguments: BuiltInScenarios.all.map(\.name))
    func costlyWorldsAreRare(scenario name: String) throws {
        let scenario = try ScenarioRegistry.scenario(named: name)
        let costs = (UInt64(0)..<500).map { WorldDraw.cost(WorldDraw.draw(seed: $0, scenario: scenario, pinned: [:], drawsFaults: false)!.parameters, scenario: scenario) }
        let mean = costs.reduce(0, +) / Double(costs.count)
        #expect(mean < 3, "\(name): mean estimated cost \(mean)")
    }

    /// A corpus keeps, in seed order, the worlds that reached something new.
    @Test func aGuidedCorpusKeepsNoveltyInSeedOrder() {
        let a = World(parameters: ["users": 2]), b = World(parameters: ["users": 3]), c = World(parameters: ["users": 4])
        let samples = [
            GuideSample(seed: 12, world: c, keys: ["trigger:x:x1", "goal:g"]),
            GuideSample(seed: 10, world: a, keys: ["trigger:x:x1"]),
            GuideSample(seed: 11, world: b, keys: ["trigger:x:x1"]),
        ]
        #expect(WorldGuide.corpus(samples) == [a, c])
        #expect(WorldGuide.isBlind(0, origin: 0) && !WorldGuide.isBlind(WorldGuide.blindSeeds, origin: 0))
        #expect(WorldGuide.block(of: 905, origin: 100).low == 900)
    }

    /// A guided seed's world is a function of the seed and the corpus, and keeps the constraints.
    @Test func guidedWorldsAreDeterministicAndValid() throws {
        let scenario = try ScenarioRegistry.scenario(named: "kiddush-booking")
        let corpus = (UInt64(0)..<5).map { WorldDraw.draw(seed: $0, scenario: scenario, pinned: [:], drawsFaults: true)! }
        for seed in UInt64(100)..<400 {
            let blind = WorldDraw.draw(seed: seed, scenario: scenario, pinned: [:], drawsFaults: true)!
            let world = WorldGuide.world(seed: seed, corpus: corpus, scenario: scenario, pinned: [:], drawsFaults: true, blind: blind)
            #expect(world == WorldGuide.world(seed: seed, corpus: corpus, scenario: scenario, pinned: [:], drawsFaults: true, blind: blind))
            var request = RunRequest(scenario: "kiddush-booking", seed: seed)
            request.world = world
            _ = try ScenarioRunner.prepare(request)
        }
    }

    /// Shards of a guided sweep start at block boundaries.
    @Test func guidedShardsAlignToBlocks() {
        let range = SeedRange(low: 0, high: 10_000)
        for index in 0..<7 {
            let shard = range.shard(index, of: 7, aligned: WorldGuide.blockSize)
            #expect(shard.low % WorldGuide.blockSize == 0)
            if index == 6 { #expect(shard.high == 10_000) }
        }
    }
}
