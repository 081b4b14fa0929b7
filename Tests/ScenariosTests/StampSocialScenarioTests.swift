import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// stamp-social: the careful design passes a fixed seed range under every strategy; each planted
/// variant is caught within a few seeds by the check that names its flaw.
@Suite struct StampSocialScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulDesignPassesSeedsOneToTwentyUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...20 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "stamp-social", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    @Test(arguments: [
        ("post-delete-feed-only", ["post-copy-consistent", "no-orphaned-comments-or-likes"]),
        ("comment-count-increment", ["comment-count-matches-comments", "no-orphaned-comments-or-likes", "no-zombie-post", "counters-not-negative"]),
        ("follow-count-increment", ["follow-counts-match-records", "counters-not-negative"]),
    ])
    func everyVariantIsCaughtWithinSixSeeds(variant: String, checks: [String]) throws {
        let caught = try caughtSeeds("stamp-social", variant: variant, parameters: [:], strategy: .random, seeds: 1...6)
        #expect(caught.count >= 2, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { checks.contains($0.check) }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "stamp-social" })
    }

    @Test func theWorkloadDeletesPostsThatOthersCommentOn() throws {
        // The race the scenario exists for must happen: over seeds 1–10 some comment is refused
        // because its post was deleted, and some double-tapped follow is refused.
        var reached: Set<String> = []
        for seed in UInt64(1)...10 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "stamp-social", seed: seed))
            for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
        }
        #expect(reached == ["comment-on-deleted-refused", "double-follow-refused"])
    }
}
