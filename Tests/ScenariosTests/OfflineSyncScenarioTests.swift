@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import Testing

/// offline-sync (UFree offline-first devices): the careful design passes fixed seeds under random
/// and PCT, and the literal last-arrival-wins rules are caught by newest-edit-wins.
@Suite struct OfflineSyncScenarioTests {
    init() { BuiltInScenarios.register() }

    static let pct = SchedulingStrategy.pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon)

    @Test func carefulDesignPassesSeedsOneToTwenty() throws {
        var rejected = 0
        for strategy in [SchedulingStrategy.random, Self.pct] {
            for seed in UInt64(1)...20 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "offline-sync", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
                if report.checks.contains(where: { $0.name == "offline-write-rejected" && $0.status == .reached }) { rejected += 1 }
            }
        }
        // The rollback path runs: some offline write is rejected as older and rolled back.
        #expect(rejected > 0)
    }

    @Test func lastArrivalWinsIsCaughtByNewestEditWins() throws {
        var caught = 0
        for seed in UInt64(1)...10 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "offline-sync", seed: seed, variant: "last-arrival-wins"))
            guard !report.passed else { continue }
            caught += 1
            #expect(["newest-edit-wins", "caches-match-server"].contains(report.violation?.check ?? ""), "\(report.failure?.message ?? "")")
        }
        #expect(caught >= 5, "last-arrival-wins caught in \(caught) of 10 seeds")
    }
}
