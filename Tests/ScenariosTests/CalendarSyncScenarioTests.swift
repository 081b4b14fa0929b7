import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// calendar-sync: the careful website syncs pass a fixed seed range under every strategy; each
/// planted variant is caught by the check that names its flaw; the cancelled-date and
/// unchanged-page paths the scenario exists for are reached.
@Suite struct CalendarSyncScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulDesignPassesSeedsOneToThirtyUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...30 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "calendar-sync", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    @Test(arguments: [
        // A booking whose calendar entry commits during the sync's fetch is overwritten (about 16 % of seeds).
        ("sync-reads-app-entries-first", ["calendar-keeps-app-bookings", "calendar-matches-website"], 40),
        // A cancellation after the page's last edit leaves the date empty (about 27 %).
        ("sync-hash-skip-stale", ["calendar-matches-website"], 30),
        // An occasion taken down stays (about 89 %).
        ("occasions-upsert-only", ["occasions-match-website"], 6),
    ])
    func everyVariantIsCaught(variant: String, checks: [String], seeds: UInt64) throws {
        let caught = try caughtSeeds("calendar-sync", variant: variant, parameters: [:], strategy: .random, seeds: 1...seeds)
        #expect(caught.count >= 2, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { checks.contains($0.check) }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "calendar-sync" })
    }

    @Test func cancelledDatesComeBackAndUnchangedPagesAreSkipped() throws {
        var reached: Set<String> = []
        for seed in UInt64(1)...10 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "calendar-sync", seed: seed))
            for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
        }
        #expect(reached == ["cancelled-date-restored", "unchanged-page-skipped"])
    }

    @Test func theSameSeedGivesTheSameTrace() throws {
        let first = try ScenarioRunner.run(RunRequest(scenario: "calendar-sync", seed: 7)).0
        let second = try ScenarioRunner.run(RunRequest(scenario: "calendar-sync", seed: 7)).0
        #expect(first.traceHash == second.traceHash)
        #expect(first.steps == second.steps)
    }
}
