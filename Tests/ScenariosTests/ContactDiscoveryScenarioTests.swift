import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import RehearsalTestSupport
import Testing

/// contact-discovery: the careful blind index passes a fixed seed range under every strategy;
/// each planted variant is caught by the check that names its flaw; the races and refusals the
/// scenario exists for happen.
@Suite struct ContactDiscoveryScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test(.ciOnly, .tags(.slow)) func carefulDesignPassesSeedsOneToTwentyUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...20 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "contact-discovery", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    @Test(arguments: [
        ("unsalted-phone-hash", "no-number-recovered-offline"),
        ("lookup-without-quota", "quota-enforced"),
        ("contacts-not-normalized", "contacts-found"),
    ])
    func everyVariantIsCaughtOnEverySeed(variant: String, check: String) throws {
        let caught = try caughtSeeds("contact-discovery", variant: variant, parameters: [:], strategy: .random, seeds: 1...3)
        #expect(caught.map(\.seed) == [1, 2, 3], "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { $0.check == check }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "contact-discovery" })
    }

    @Test func lateRegistrationsAreFoundLaterAndTheScriptIsRefused() throws {
        var reached: Set<String> = []
        for seed in UInt64(1)...5 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "contact-discovery", seed: seed))
            for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
        }
        #expect(reached == ["late-registration-found-later", "quota-refused"])
    }

    @Test func aQuotaTooSmallForTheUsersOwnLookupsIsRefused() {
        #expect(throws: ScenarioError.self) {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "contact-discovery", seed: 1, parameters: ["contactsPerUser": 100, "lookupsPerDay": 150]))
        }
    }
}
