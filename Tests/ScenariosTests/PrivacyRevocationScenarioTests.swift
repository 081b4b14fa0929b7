import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// privacy-revocation: the careful design passes a fixed seed range under every strategy; the
/// metadata variants are caught; reads really race revocations and grants.
@Suite struct PrivacyRevocationScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulDesignPassesSeedsOneToTwentyUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...20 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "privacy-revocation", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    @Test(arguments: [
        ("author-metadata-never-updated", "author-metadata-current"), ("author-metadata-from-event", "author-metadata-current"),
        ("joined-groups-in-profile", "joined-groups-respect-setting"), ("profile-missing-from-cache", "not-found-only-if-missing"),
        ("privacy-sparse-merge", "rules-allow-the-app"),
    ])
    func variantsAreCaught(variant: String, check: String) throws {
        let caught = try caughtSeeds("privacy-revocation", variant: variant, parameters: [:], strategy: .random, seeds: 1...20)
        #expect(caught.count >= 2, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { $0.check == check }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "privacy-revocation" })
    }

    @Test func readsRaceRevocationsAndGrants() throws {
        var reached: Set<String> = []
        var judged = 0
        for seed in UInt64(1)...10 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "privacy-revocation", seed: seed))
            for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
            judged += report.checks.filter { ["no-read-after-revocation", "no-wrong-denial", "joined-groups-respect-setting"].contains($0.name) }
                .map(\.observations).reduce(0, +)
        }
        #expect(reached.isSuperset(of: ["read-refused-after-revocation", "read-allowed-after-grant", "page-ended-by-revocation"]), "\(reached)")
        #expect(judged > 200, "only \(judged) reads judged")
    }
}
