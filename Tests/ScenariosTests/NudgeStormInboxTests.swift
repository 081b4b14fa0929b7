import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// nudge-storm's notification inboxes (a real-time listener per device): the careful badge
/// matches the server on a fixed seed range, the event-counter badge is caught, a read on the
/// other device is seen, a sync line that takes the listener's echo of a pending write for the
/// server's answer is caught; "Mark all read" marks only what the screen showed, and one that
/// asks the server what is unread is caught.
@Suite struct NudgeStormInboxTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulInboxesMatchTheServerOnSeedsOneToTwenty() throws {
        var reached = false, syncing = false
        for seed in UInt64(1)...20 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "nudge-storm", seed: seed))
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            reached = reached || report.checks.contains { $0.name == "read-on-other-device" && $0.status == .reached }
            syncing = syncing || report.checks.contains { $0.name == "read-shown-syncing" && $0.status == .reached }
        }
        #expect(reached, "no read on one device was ever seen on the other")
        #expect(syncing, "no tapped read was ever shown while its write was on the way")
    }

    @Test func theEventCounterBadgeIsCaught() throws {
        let caught = try caughtSeeds("nudge-storm", variant: "badge-counts-events", parameters: [:], strategy: .random, seeds: 1...5)
        #expect(caught.count >= 3, "caught on \(caught)")
        #expect(caught.allSatisfy { $0.check == "inbox-matches-server" }, "\(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == "badge-counts-events" && $0.scenario == "nudge-storm" })
    }

    @Test func withoutInboxesNothingIsCaught() throws {
        let caught = try caughtSeeds("nudge-storm", variant: "badge-counts-events", parameters: ["inboxPercent": 0], strategy: .random, seeds: 1...3)
        #expect(caught.isEmpty, "\(caught)")
    }

    @Test func upToDateFromTheEchoIsCaught() throws {
        let caught = try caughtSeeds("nudge-storm", variant: "inbox-synced-from-echo", parameters: [:], strategy: .random, seeds: 1...3)
        #expect(caught.count == 3 && caught.allSatisfy { $0.check == "up-to-date-is-saved" }, "\(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == "inbox-synced-from-echo" && $0.scenario == "nudge-storm" })
    }

    /// Careful "Mark all read" is reached and passes; the server query's version marks a
    /// notification the user never saw, and without Mark all read nothing catches it.
    @Test func markAllReadMarksOnlyWhatTheScreenShowed() throws {
        var marked = false
        for seed in UInt64(1)...6 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "nudge-storm", seed: seed, parameters: ["markAllPercent": 50]))
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            marked = marked || report.checks.contains { $0.name == "marked-all-read" && $0.status == .reached }
        }
        #expect(marked, "Mark all read never saved")
        // Listeners whose connection drops (a screen seconds behind the server) expose it.
        func caught(_ parameters: [String: Int]) throws -> [String] {
            try (UInt64(1)...6).compactMap { seed in
                var request = RunRequest(scenario: "nudge-storm", seed: seed, parameters: parameters, variant: "mark-all-read-by-query")
                request.world = World(faults: ["listener-disconnect": 0.2], outages: [])
                let report = try ScenarioRunner.run(request).0
                return report.passed ? nil : report.violation?.check ?? "?"
            }
        }
        let found = try caught([:])
        #expect(found.count >= 3 && found.allSatisfy { $0 == "read-only-what-was-shown" }, "\(found)")
        #expect(try caught(["markAllPercent": 0]).isEmpty, "only Mark all read marks what was not shown")
        #expect(BugZoo.bugs.contains { $0.variant == "mark-all-read-by-query" && $0.scenario == "nudge-storm" })
    }
}
