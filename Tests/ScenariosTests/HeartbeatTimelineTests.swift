import FirebaseHarness
import Foundation
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import RehearsalTestSupport
import Testing

/// heartbeat-timeline (SafeNSound): careful passes, every variant is caught, the replay reproduces the seed's table.
/// Serialized: Foundation's time-zone formatting under parallel simulations can yield the thread
/// (`nanosleep(0)` in ICU's lock), which the kernel rightly reports as an escape.
@Suite(.serialized) struct HeartbeatTimelineTests {
    init() { BuiltInScenarios.register() }

    static let pct = SchedulingStrategy.pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon)
    /// 40 users keep a run near 1 s in debug; the default (200) takes about 9 s.
    static let small = ["users": 40]

    @Test func carefulPassesOverManySeeds() throws {
        for strategy in [SchedulingStrategy.random, Self.pct] {
            for seed in UInt64(1)...8 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, strategy: strategy, parameters: Self.small))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
                #expect(report.outcome == "finished")
                for check in ["one-alert-per-kind-per-window", "no-double-send", "alert-on-time", "email-shows-local-time", "rate-limit-respected"] {
                    #expect(report.checks.first { $0.name == check }?.status == .passed, "\(check) seed \(seed)")
                }
                #expect(report.latency.contains { $0.operation == "thresholdToEmail" })
                #expect(!report.timeline.isEmpty)
            }
        }
    }

    /// Seed 4 under PCT (depth 3), default 200 users (about 9 s), is where SendGrid refused the
    /// second contact and the whole-alert retry emailed the first contact again; with per-recipient
    /// delivery the retry reaches only the missing contact and the strict no-double-send holds.
    @Test func partialSendGridFailureRetriesOnlyTheMissingContact() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: 4, strategy: Self.pct))
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(report.checks.first { $0.name == "no-double-send" }?.status == .passed)
        #expect(report.checks.first { $0.name == "retry-skips-delivered-contacts" }?.status == .reached)
        #expect(!report.checks.contains { $0.name == "resend-after-partial-failure" })
    }

    /// Seeds 1…3 catch each variant (recorded in docs/scenarios.md); the check that fires is the one the flaw breaks.
    @Test(.ciOnly, .tags(.slow), arguments: [
        ("random-alert-id", "one-alert-per-kind-per-window", true), ("unclaimed-sender", "no-alert-after-checkin", true),
        ("no-heartbeat-recheck", "no-alert-after-checkin", true), ("late-pre-notification", "alert-on-time", true),
        ("read-then-write-rate-limit", "rate-limit-respected", false), ("utc-email", "email-shows-local-time", true),
        ("wall-clock-threshold", "alert-on-time", true), ("contacts-fixed-at-check", "email-to-current-contacts", true),
        ("rules-auth-not-null-only", "rules-deny-foreign-access", true), ("alerts-index-not-deployed", "missed-window-alerted", true),
        ("rules-dev-catch-all", "rules-deny-foreign-access", true),
    ])
    func everyVariantIsCaught(variant: String, check: String, pctCatches: Bool) throws {
        for seed in UInt64(1)...3 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: Self.small, variant: variant))
            #expect(!report.passed, "\(variant) seed \(seed) not caught")
            // unclaimed-sender also retries an alert whole, so the strict no-double-send can fire first.
            #expect(report.violation?.check == check || variant == "no-heartbeat-recheck" || variant == "wall-clock-threshold"
                        || (variant == "unclaimed-sender" && report.violation?.check == "no-double-send"),
                    "\(variant) seed \(seed): \(report.violation?.check ?? "none")")
            let (pctReport, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, strategy: Self.pct, parameters: Self.small, variant: variant))
            // PCT (3 preemptions) rarely splits the same-instant read and write of the rate limit: a known gap.
            if pctCatches { #expect(!pctReport.passed, "\(variant) seed \(seed) pct") }
        }
    }

    /// App Check (MODEL_RULES §32): on devices whose attestation fails, the careful check-in
    /// (verified, not enforced) is accepted; enforcing it refuses them, and the check-in check
    /// says so on every seed of a world where one device in ten fails.
    @Test func appCheckEnforcedOnTheCheckInIsCaught() throws {
        func run(_ seed: UInt64, _ variant: String?) throws -> RunReport {
            var request = RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: Self.small, variant: variant)
            request.world = World(faults: ["app-check-attestation-failed": 0.1], outages: [])
            return try ScenarioRunner.run(request).0
        }
        for seed in UInt64(1)...3 {
            let enforced = try run(seed, "app-check-enforced-heartbeat")
            #expect(!enforced.passed && enforced.violation?.check == "check-in-not-refused", "seed \(seed): \(enforced.violation?.check ?? "none")")
            let careful = try run(seed, nil)
            #expect(careful.passed, "seed \(seed): \(careful.failure?.message ?? "")")
            #expect((careful.faults?.first { $0.kind.rawValue == "app-check-attestation-failed" }?.observed ?? 0) > 0, "seed \(seed): no device failed")
        }
    }

    /// invalid-token-deactivates needs a churned token whose push fails before the end: seeds 1 and 6
    /// at 40 users (random and PCT); careful passes on both, and on seed 8 pushes to a re-registered token.
    @Test func invalidTokenDeactivatesIsCaughtAndCarefulKeepsMonitoring() throws {
        for seed in [UInt64(1), 6] {
            for strategy in [SchedulingStrategy.random, Self.pct] {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, strategy: strategy, parameters: Self.small, variant: "invalid-token-deactivates"))
                #expect(!report.passed, "seed \(seed) \(strategy) not caught")
                #expect(report.violation?.check == "monitoring-stays-on", "seed \(seed): \(report.violation?.check ?? "none")")
            }
            let (careful, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: Self.small))
            #expect(careful.passed, "\(careful.failure?.message ?? "")")
            for check in ["monitoring-stays-on", "push-token-current"] {
                #expect(careful.checks.first { $0.name == check }?.status == .passed, "\(check) seed \(seed)")
            }
        }
        let (reregistered, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: 8, parameters: Self.small))
        #expect(reregistered.passed)
        #expect(reregistered.checks.first { $0.name == "push-to-reregistered-token" }?.status == .reached)
        // Without churn nothing invalidates a token: the literal design passes (the flaw needs the fault).
        let (noChurn, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: 1, parameters: ["users": 40, "tokenChurnPercent": 0], variant: "invalid-token-deactivates"))
        #expect(noChurn.passed)
    }

    /// reinstall-orphans-account: seeds 3 and 4 at 40 users reinstall a person whose old account's
    /// threshold passes before the end; careful retires the old account on those seeds.
    @Test func reinstallOrphansAccountIsCaughtAndCarefulRetiresIt() throws {
        for seed in [UInt64(3), 4] {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: Self.small, variant: "reinstall-orphans-account"))
            #expect(report.violation?.check == "no-alert-for-abandoned-account", "seed \(seed): \(report.violation?.check ?? "none")")
            let (careful, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: Self.small))
            #expect(careful.passed, "\(careful.failure?.message ?? "")")
            #expect(careful.checks.first { $0.name == "abandoned-account-retired" }?.status == .passed, "seed \(seed)")
        }
    }

    /// email-failure-marks-failed: with ten SendGrid outages, seeds 1 and 4 at 40 users have an email
    /// due in one; careful backs off and sends it after the outage (and passes).
    @Test func emailFailureMarksFailedIsCaughtAndCarefulSendsAfterTheOutage() throws {
        let outages = ["users": 40, "emailOutages": 10]
        for seed in [UInt64(1), 4] {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: outages, variant: "email-failure-marks-failed"))
            #expect(report.violation?.check == "missed-window-alerted", "seed \(seed): \(report.violation?.check ?? "none")")
            let (careful, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: seed, parameters: outages))
            #expect(careful.passed, "\(careful.failure?.message ?? "")")
            #expect(careful.checks.first { $0.name == "email-sent-after-outage" }?.status == .reached, "seed \(seed)")
        }
    }

    @Test func wallClockThresholdIsCaughtAtTheDSTChange() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "heartbeat-timeline", seed: 1, parameters: Self.small, variant: "wall-clock-threshold"))
        let message = try #require(report.violation?.message)
        #expect(message.contains("early by") || message.contains("late by") || message.contains("reached"), "\(message)")
    }

    @Test func sharesOverOneHundredPercentAreRejected() {
        #expect(throws: ScenarioError.self) {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "heartbeat-timeline", seed: 1, parameters: ["missedPercent": 60, "latePercent": 50]))
        }
    }
}
