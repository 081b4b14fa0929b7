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
        ("photo-errors-per-task", ["no-dangling-url"]), ("avatar-url-outlives-privacy", ["copied-avatar-url-revoked"]),
    ])
    func everyVariantIsCaughtWithinSixSeeds(variant: String, checks: [String]) throws {
        let caught = try caughtSeeds("media-uploads", variant: variant, parameters: [:], strategy: .random, seeds: 1...6)
        #expect(caught.count >= 3, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { checks.contains($0.check) }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "media-uploads" })
    }

    /// The clean-ups that act on no answer (delete a post's images, or keep an avatar's or a
    /// collect's objects and never look again) are caught in the zoo's network incidents, each by
    /// the check its flaw breaks; the careful design passes there.
    @Test(arguments: [
        ("post-cleanup-without-answer", "no-dangling-url"), ("avatar-cleanup-needs-answer", "no-orphaned-object"),
        ("photo-cleanup-needs-answer", "no-orphaned-object"),
    ])
    func cleanupWithoutAnAnswerIsCaughtInANetworkIncident(variant: String, check: String) throws {
        let bug = try #require(BugZoo.bugs.first { $0.variant == variant && $0.scenario == "media-uploads" })
        let world = try #require(bug.world)
        var caught: UInt64?
        for seed in UInt64(1)...8 where caught == nil {
            var request = RunRequest(scenario: "media-uploads", seed: seed, parameters: bug.parameters.compactMapValues { Int($0) }, variant: variant)
            request.world = world
            let (report, _) = try ScenarioRunner.run(request)
            guard !report.passed else { continue }
            caught = seed
            #expect(report.violation?.check == check, "\(variant) seed \(seed): \(report.failure?.message ?? "passed")")
            request.variant = nil
            let (careful, _) = try ScenarioRunner.run(request)
            #expect(careful.passed, "careful seed \(seed): \(careful.failure?.message ?? "")")
        }
        #expect(caught != nil, "\(variant) passed seeds 1...8 of its incident")
    }

    /// A lossy network incident, seed 2 (10 posters of 10 posts): post writes whose answers were
    /// lost and whose looks back went unanswered leave their images undecided; the careful design
    /// reopens the apps and keeps what the posts name, the old one deletes the images of a post
    /// that landed.
    @Test func aPostLeftUndecidedKeepsItsImagesOnceItIsFound() throws {
        let bug = try #require(BugZoo.bugs.first { $0.variant == "post-cleanup-without-answer" })
        var request = RunRequest(scenario: "media-uploads", seed: 2, parameters: ["posters": 10, "postsPerPoster": 10])
        request.world = bug.world
        let (report, _) = try ScenarioRunner.run(request)
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(report.checks.first { $0.name == "no-dangling-url" }?.status == .passed)
        #expect(report.timeline.contains { $0.user.hasPrefix("poster") && $0.event.hasPrefix("app opened") }, "an undecided post")
        request.variant = "post-cleanup-without-answer"
        let (old, _) = try ScenarioRunner.run(request)
        #expect(old.violation?.check == "no-dangling-url", "\(old.failure?.message ?? "passed")")
    }

    /// World-swarm seed 179 (non-preemptive): owner0's only avatar switch failed in a
    /// client-network outage and so did every read of the profile after it; the device kept the
    /// objects undecided and deleted them when the app opened again after the outage.
    @Test func anAvatarSwitchLeftUndecidedIsCleanedUpWhenTheAppOpensAgain() throws {
        var request = RunRequest(
            scenario: "media-uploads", seed: 179, strategy: .nonpreemptive,
            parameters: [
                "avatarOwners": 10, "avatarUpdates": 1, "collectors": 8, "photosPerCollect": 6, "postsPerPoster": 16, "readers": 1,
                "readsPerReader": 1, "rulesProbes": 0, "uploadFailurePercent": 13,
            ])
        request.world = World(
            faults: [
                "contention-abort": 0.6, "email-rate-limit": 0.3, "email-timeout": 0.02, "latency-tails": 0.08, "network-failure": 0.04,
                "network-timeout": 0.0336, "schedule-duplicate": 0.02, "schedule-overlap": 1, "trigger-duplicate": 0, "trigger-reorder": 0.6,
            ],
            outages: [try #require(OutageDraw(argument: "client-network:5.24:69:2135:0.5:down"))])
        let (report, _) = try ScenarioRunner.run(request)
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(report.checks.first { $0.name == "no-orphaned-object" }?.status == .passed)
        #expect(report.timeline.contains { $0.user == "owner0" && $0.event.hasPrefix("app opened") }, "the undecided clean-up")
        request.variant = "avatar-cleanup-needs-answer"
        let (old, _) = try ScenarioRunner.run(request)
        #expect(old.violation?.check == "no-orphaned-object", "\(old.failure?.message ?? "passed")")
    }

    /// World-swarm seed 176 (PCT depth 1): collects fail in a client-network outage with their
    /// photos undecided; the next collect decides them first and deletes them (the careful design
    /// passes, the design that needs the failed collect's answer orphans them).
    @Test func photosOfACollectLeftUndecidedAreCleanedUpByTheNextCollect() throws {
        var request = RunRequest(
            scenario: "media-uploads", seed: 176, strategy: try #require(SchedulingStrategy(parsing: "pct:1")),
            parameters: [
                "avatarUpdates": 1, "collectors": 14, "collectsPerCollector": 20, "durationSeconds": 1, "photosPerCollect": 7,
                "readsPerReader": 8, "uploadFailurePercent": 38,
            ])
        request.world = World(
            faults: [
                "contention-abort": 0.3, "email-rate-limit": 0, "email-timeout": 0.04, "fcm-token-failure": 0.1799, "schedule-duplicate": 0.5,
                "schedule-overlap": 1, "trigger-duplicate": 0.1835, "trigger-reorder": 0.6,
            ],
            outages: try ["client-network:3.82:35:66:0.5:down", "sendgrid:6.0:195:3592:0.5", "fcm:4.52:62:838:0.8:down", "storage:2.0:149:223:0.5"]
                .map { try #require(OutageDraw(argument: $0)) })
        let (report, _) = try ScenarioRunner.run(request)
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(report.checks.first { $0.name == "no-orphaned-object" }?.status == .passed)
        #expect(report.timeline.contains { $0.user.hasPrefix("collector") && $0.event.hasPrefix("collect stamp") && $0.event.contains(" failed: ") },
                "an undecided collect")
        request.variant = "photo-cleanup-needs-answer"
        let (old, _) = try ScenarioRunner.run(request)
        #expect(old.violation?.check == "no-orphaned-object", "\(old.failure?.message ?? "passed")")
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
