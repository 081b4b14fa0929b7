import FirebaseHarness
import Harness
import Scenarios
import Sim
import Testing

/// The world bugs: each variant passes the default world at its pinned defaults (the default
/// sweep cannot see it) and fails in a world that moves the one parameter it needs.
@Suite struct BugZooWorldTests {
    init() { BuiltInScenarios.register() }

    /// The bug, and a world that shows it (only the parameter the bug needs moves).
    static let cases: [(variant: String, scenario: String, world: [String: Int])] = [
        ("total-pledged-from-honor", "auction-race", ["honors": 3]),
        ("nudge-cooldown-half", "nudge-storm", ["durationSeconds": 600, "actionsPerUser": 20]),
        ("heatmap-one-week", "whos-free", ["days": 14]),
        ("collectors-list-capped", "stamp-collect", ["users": 30, "stamps": 1]),
        ("places-first-page-only", "studio-claim", ["studios": 60]),
        ("reminder-query-first-page", "daily-reminder", ["users": 150]),
    ]

    @Test(arguments: cases.map(\.variant))
    func aWorldBugIsInTheZoo(variant: String) throws {
        let bug = try #require(BugZoo.bugs.first { $0.variant == variant })
        #expect(bug.needs.hasPrefix("world:"))
        #expect(bug.parameters.isEmpty, "found by the world swarm, not by tuned parameters")
    }

    @Test(arguments: cases.map(\.variant))
    func aWorldBugNeedsItsWorld(variant: String) throws {
        let entry = try #require(Self.cases.first { $0.variant == variant })
        // Faults off, so the verdicts speak of the world's sizes only.
        let quiet = World(faults: Dictionary(uniqueKeysWithValues: FirebaseWorld.faultKnobs.map { ($0.name, 0) }))
        var passes = 0
        for seed in UInt64(1)...3 {
            var request = RunRequest(scenario: entry.scenario, seed: seed, strategy: .random, variant: variant)
            request.world = quiet
            if try ScenarioRunner.run(request).report.passed { passes += 1 }
        }
        #expect(passes == 3, "\(variant) passes the default world's sizes")
        var failures = 0
        for seed in UInt64(1)...3 {
            var request = RunRequest(scenario: entry.scenario, seed: seed, strategy: .random, variant: variant)
            request.world = World(parameters: entry.world, faults: quiet.faults)
            if try !ScenarioRunner.run(request).report.passed { failures += 1 }
        }
        #expect(failures >= 2, "\(variant) fails in \(entry.world)")
    }
}
