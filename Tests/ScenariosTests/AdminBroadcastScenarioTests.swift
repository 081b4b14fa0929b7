import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// admin-broadcast: the careful fan-out passes under every strategy, past 500 devices too; each
/// planted variant is caught by the check it breaks; the platform's limits and terminations are
/// what expose the fan-out variants.
@Suite struct AdminBroadcastScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulDesignPassesSeedsOneToTenUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), .nonpreemptive] {
            for seed in UInt64(1)...10 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "admin-broadcast", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
            }
        }
    }

    /// 600 members with 3 devices each: the careful fan-out makes several FCM calls of at most 500
    /// and reaches every device; uninstalled apps' tokens are removed, reply likes notified.
    @Test func carefulFanOutPast500DevicesReachesEveryone() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(
            scenario: "admin-broadcast", seed: 3, parameters: ["users": 600, "devicesPerUser": 3, "staleDevicePercent": 20]))
        #expect(report.passed, "\(report.failure?.message ?? "")")
        let reached = Set(report.checks.filter { $0.kind == .sometimes && $0.status == .reached }.map(\.name))
        #expect(reached.isSuperset(of: ["dead-token-removed", "reply-like-sent"]), "reached \(reached.sorted())")
        let devices = report.checks.first { $0.name == "announcement-rings-every-device" }?.observations ?? 0
        #expect(devices > 2 * 500, "\(devices) devices judged for two announcements: each fan-out needed several FCM calls")
    }

    @Test(arguments: [
        ("broadcast-single-multicast", ["users": 600, "devicesPerUser": 2], "announcement-rings-every-device"),
        ("broadcast-one-by-one", ["users": 1_500], "announcement-within-two-minutes"),
        ("broadcast-ignores-preference", [:], "no-announcement-when-opted-out"),
        ("stale-tokens-kept", [:], "dead-tokens-removed"),
        ("broadcast-lease-plain-write", [:], "announcement-in-every-inbox"),
        ("broadcast-push-now-or-never", [:], "announcement-rings-every-device"),
        ("token-stored-at-sign-in", ["users": 100], "announcement-rings-every-device"),
    ])
    func variantsAreCaught(variant: String, parameters: [String: Int], check: String) throws {
        let caught = try caughtSeeds("admin-broadcast", variant: variant, parameters: parameters, strategy: .random, seeds: 1...6)
        #expect(caught.count >= 2, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { $0.check == check }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "admin-broadcast" })
    }

    /// The one-by-one fan-out is exposed by the execution timeout: at 1,500 members it outlives
    /// 60 s (the ledger counts function-timeout) and the members past the cut wait for a
    /// redelivery; with the timeout out of reach (200 members) it passes.
    @Test func oneByOneFanOutFailsOnlyPastItsTimeout() throws {
        let (large, _) = try ScenarioRunner.run(RunRequest(
            scenario: "admin-broadcast", seed: 1, strategy: .random, parameters: ["users": 1_500], variant: "broadcast-one-by-one"))
        #expect(large.faults?.first { $0.kind.rawValue == "function-timeout" }.map { $0.observed > 0 } == true)
        #expect(large.violation?.check == "announcement-within-two-minutes")
        let small = try ScenarioRunner.run(RunRequest(
            scenario: "admin-broadcast", seed: 1, strategy: .random, parameters: ["users": 200], variant: "broadcast-one-by-one")).report
        #expect(small.passed, "\(small.failure?.message ?? "")")
    }

    /// A world that loses one admin answer in five inside functions (MODEL_RULES §22): the careful
    /// claim knows its own lease when the SDK runs the transaction again, and passes; the claim that
    /// takes any live lease for another delivery's (`broadcast-own-lease-busy`) drops announcements.
    @Test func aClaimWhoseAnswerWasLostIsTakenAgainNotDropped() throws {
        var caught: [UInt64] = []
        for seed in UInt64(1)...6 {
            var careful = RunRequest(scenario: "admin-broadcast", seed: seed, strategy: .random)
            careful.world = World(faults: ["admin-answer-lost": 0.2])
            let (passing, _) = try ScenarioRunner.run(careful)
            #expect(passing.passed, "seed \(seed): \(passing.failure?.message ?? "")")
            var old = careful
            old.variant = "broadcast-own-lease-busy"
            let (report, _) = try ScenarioRunner.run(old)
            guard !report.passed else { continue }
            caught.append(seed)
            #expect(report.violation?.check == "announcement-in-every-inbox", "\(report.failure?.message ?? "")")
        }
        #expect(caught.count >= 2, "caught on \(caught)")
    }
}
