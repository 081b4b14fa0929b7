import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import RehearsalTestSupport
import Testing

/// studio-claim: the careful design passes a fixed seed range under every strategy; each planted
/// variant is caught by the check that names its flaw; the races the scenario exists for happen.
@Suite struct StudioClaimScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test(.ciOnly, .tags(.slow)) func carefulDesignPassesSeedsOneToTwentyUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...20 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "studio-claim", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    @Test(arguments: [
        ("reseed-overwrites-claim", ["claim-kept", "owner-edit-kept"]),
        ("claim-check-then-write", ["one-owner-told-per-studio", "claim-kept"]),
    ])
    func everyVariantIsCaughtWithinSixSeeds(variant: String, checks: [String]) throws {
        let caught = try caughtSeeds("studio-claim", variant: variant, parameters: [:], strategy: .random, seeds: 1...6)
        #expect(caught.count >= 2, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { checks.contains($0.check) }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "studio-claim" })
    }

    @Test func competingClaimsAndImpostorsHappen() throws {
        var reached: Set<String> = []
        for seed in UInt64(1)...5 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "studio-claim", seed: seed))
            for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
        }
        #expect(reached == ["claim-refused-already-claimed", "impostor-refused"])
    }
}
