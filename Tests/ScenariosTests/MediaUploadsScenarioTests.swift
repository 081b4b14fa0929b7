import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// media-uploads: the careful design passes a fixed seed range under every strategy; each planted
/// variant (one per app) is caught by the check that names its flaw; the goals are reached.
@Suite struct MediaUploadsScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulDesignPassesSeedsOneToTwentyUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...20 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "media-uploads", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    @Test(arguments: [
        ("storage-rules-no-size-check", ["storage-rules-as-documented"]),
        ("avatar-delete-then-upload", ["avatar-never-broken", "no-dangling-url"]),
        ("photo-errors-per-task", ["no-dangling-url"]),
    ])
    func everyVariantIsCaughtWithinSixSeeds(variant: String, checks: [String]) throws {
        let caught = try caughtSeeds("media-uploads", variant: variant, parameters: [:], strategy: .random, seeds: 1...6)
        #expect(caught.count >= 3, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { checks.contains($0.check) }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "media-uploads" })
    }

    @Test func retriesDropsDoubleTapsAndReadsDuringUpdatesHappen() throws {
        var reached: Set<String> = []
        // At 40 % failures an upload fails all three attempts often enough to be dropped.
        for seed in UInt64(1)...8 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "media-uploads", seed: seed, parameters: ["uploadFailurePercent": 40]))
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
        }
        #expect(reached == ["avatar-read-during-update", "double-collect-cleaned-up", "upload-dropped", "upload-retried"])
    }

    @Test func withoutUploadFailuresNothingIsRetriedOrDropped() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "media-uploads", seed: 1, parameters: ["uploadFailurePercent": 0]))
        #expect(report.passed)
        #expect(report.faults?.contains { $0.kind == FaultKindName(.storageUploadFailure) } != true, "no chance drawn at rate 0")
        #expect(report.checks.first { $0.name == "upload-retried" }?.status != .reached)
    }

    @Test func nobodyUploadingIsBadInput() throws {
        #expect(throws: ScenarioError.self) {
            try ScenarioRunner.prepare(RunRequest(scenario: "media-uploads", seed: 1, parameters: ["posters": 0, "avatarOwners": 0, "collectors": 0]))
        }
    }
}
