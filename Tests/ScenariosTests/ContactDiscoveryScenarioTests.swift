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

    /// World-swarm seed 125 (random): a quota of 70 for 30 contacts, and network failures; a user's
    /// discovery retried after a failure the server had counted leaves the final one answered in
    /// part, and it says so. Entries left unanswered are not missing; the answered ones are judged,
    /// and no more may be left than the user's lookups beyond the quota.
    @Test func entriesLeftUnansweredByTheQuotaAreNotMissing() throws {
        var request = RunRequest(
            scenario: "contact-discovery", seed: 125, strategy: .random,
            parameters: ["attackers": 0, "contactsPerUser": 30, "gbPercent": 11, "lookupsPerDay": 70, "registerSpreadSeconds": 2, "users": 284])
        request.world = World(
            faults: [
                "contention-abort": 0, "email-rate-limit": 0, "latency-tails": 0.3, "network-failure": 0.08, "schedule-duplicate": 0.02,
                "schedule-overlap": 0.8723, "trigger-duplicate": 0.04,
            ],
            outages: [try #require(OutageDraw(argument: "fcm:6.0:310:1491:0.52")), try #require(OutageDraw(argument: "storage:2.0:85:738:1.0"))])
        let (report, _) = try ScenarioRunner.run(request)
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(report.checks.first { $0.name == "contacts-found" }?.status == .passed)
        #expect(report.timeline.contains { $0.user.hasPrefix("u") && $0.event.hasSuffix("left unanswered (quota)") }, "a partly answered discovery")
    }

    @Test func aQuotaTooSmallForTheUsersOwnLookupsIsRefused() {
        #expect(throws: ScenarioError.self) {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "contact-discovery", seed: 1, parameters: ["contactsPerUser": 100, "lookupsPerDay": 150]))
        }
    }
}
