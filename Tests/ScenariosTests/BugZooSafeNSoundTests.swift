import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase
import Testing

/// The SafeNSound variants are in the zoo, on heartbeat-timeline with small parameters (the daily
/// reminder's on daily-reminder), and
/// `measure` runs them with those parameters.
@Suite(.serialized) struct BugZooSafeNSoundTests {
    init() { BuiltInScenarios.register() }

    @Test func everySafeNSoundVariantIsAZooBugOnHeartbeatTimeline() {
        let safeNSound = BugZoo.bugs.filter { $0.app == "safensound" }
        // The daily reminder's variants run on daily-reminder at its defaults.
        let reminder = safeNSound.filter { $0.variant.hasPrefix("reminder-") }
        #expect(reminder.map(\.variant).sorted() == ["reminder-every-24h", "reminder-local-clock-match", "reminder-query-first-page", "reminder-utc-time"])
        #expect(reminder.allSatisfy { $0.scenario == "daily-reminder" && $0.parameters.isEmpty })
        #expect(reminder.filter { $0.needs != "depth-1" }.map(\.variant) == ["reminder-query-first-page"], "the one world bug")
        let zoo = safeNSound.filter { !$0.variant.hasPrefix("reminder-") }
        #expect(zoo.map(\.variant).sorted() == ["alerts-index-not-deployed", "app-check-enforced-heartbeat", "check-takes-for-good", "contacts-fixed-at-check", "email-failure-marks-failed", "invalid-token-deactivates", "late-pre-notification", "no-heartbeat-recheck", "random-alert-id", "rate-limit-in-memory",
                                               "read-then-write-rate-limit", "reinstall-orphans-account", "rules-auth-not-null-only", "rules-dev-catch-all", "unclaimed-sender", "utc-email",
                                               "wall-clock-threshold"])
        for bug in zoo {
            #expect(bug.scenario == "heartbeat-timeline")
            #expect(bug.parameters == (bug.variant == "email-failure-marks-failed" ? ["users": "40", "emailOutages": "10"] : ["users": "40"]), "\(bug.variant)")
            #expect(bug.needs.hasPrefix("depth-") || bug.needs.hasPrefix("fault:") || bug.needs.hasPrefix("decision:"), "\(bug.variant): \(bug.needs)")
        }
    }

    @Test func measureUsesTheBugsParameters() throws {
        var bug = try #require(BugZoo.bugs.first { $0.variant == "utc-email" })
        let measurement = try BugZoo.measure(bug, seeds: 1, shrinkRuns: 3, strategies: [.random])
        #expect(measurement.result("random")?.firstFailure == 1)
        #expect(measurement.check == "email-shows-local-time")
        bug.parameters = ["users": "forty"]
        #expect(throws: ScenarioError.self) { _ = try BugZoo.measure(bug, seeds: 1, shrinkRuns: 3, strategies: [.random]) }
        bug.parameters = ["users": "0"]
        #expect(throws: ScenarioError.self) { _ = try BugZoo.measure(bug, seeds: 1, shrinkRuns: 3, strategies: [.random]) }
    }
}
