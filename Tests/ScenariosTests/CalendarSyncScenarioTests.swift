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
        // The occasions screen is empty while a run fetches (for hours in a website outage): every seed.
        ("occasions-cleared-before-fetch", ["occasions-stay-shown"], 3),
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

    /// The homepage down for hours (a website outage, 503 to every fetch): the careful syncs keep
    /// the last page they read and pass, since the end check owes only what a run outside the
    /// outage could fetch; with short outages a stale design is still caught.
    @Test func aWebsiteOutageOwesOnlyWhatARunCouldFetch() throws {
        func run(_ seed: UInt64, _ outage: String, variant: String? = nil) throws -> RunReport {
            var request = RunRequest(scenario: "calendar-sync", seed: seed, variant: variant)
            request.world = World(faults: [:], outages: [try #require(OutageDraw(argument: outage))])
            return try ScenarioRunner.run(request).0
        }
        var failedFetches = 0
        for seed in UInt64(1)...12 {
            let report = try run(seed, "website:6.0:900:7200:1.0:down")
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            failedFetches += report.faults?.first { $0.kind.rawValue == "website-fetch-failure" }?.observed ?? 0
        }
        #expect(failedFetches > 12 * 20, "the outage failed most fetches of every run")
        var caught = 0
        for seed in UInt64(1)...6 where try !run(seed, "website:2.0:60:300:1.0", variant: "occasions-upsert-only").passed { caught += 1 }
        #expect(caught >= 2, "short outages leave the end check its runs")
    }

    @Test func theSameSeedGivesTheSameTrace() throws {
        let first = try ScenarioRunner.run(RunRequest(scenario: "calendar-sync", seed: 7)).0
        let second = try ScenarioRunner.run(RunRequest(scenario: "calendar-sync", seed: 7)).0
        #expect(first.traceHash == second.traceHash)
        #expect(first.steps == second.steps)
    }
}
