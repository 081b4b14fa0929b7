@testable import FirebaseHarness
import Foundation
@testable import Harness
@testable import Scenarios
import Sim
import RehearsalTestSupport
import Testing

/// daily-reminder (SafeNSound): the careful design passes under every strategy, each reminder
/// variant is caught by the check its flaw breaks, the DST edge goals are reached, and the oracle's
/// table of offsets agrees with the zone data the domain uses.
/// Serialized: Foundation's time-zone lookups under parallel simulations can yield the thread.
@Suite(.serialized) struct DailyReminderScenarioTests {
    init() { BuiltInScenarios.register() }

    static let pct = SchedulingStrategy.pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon)

    @Test(.ciOnly, .tags(.slow)) func carefulDesignPassesUnderEveryStrategy() throws {
        for strategy in [SchedulingStrategy.random, Self.pct, .nonpreemptive] {
            for seed in UInt64(1)...12 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "daily-reminder", seed: seed, strategy: strategy))
                #expect(report.passed, "seed \(seed) \(strategy): \(report.failure?.message ?? "")")
                for check in ["reminder-at-local-time", "one-reminder-per-local-day", "no-reminder-when-disabled", "reminder-every-enabled-day"] {
                    #expect(report.checks.first { $0.name == check }?.status == .passed, "\(check) seed \(seed)")
                }
            }
        }
    }

    /// Over the six DST changes (seeds draw them) the runs reach every goal, the skipped and repeated hours included.
    @Test(.ciOnly, .tags(.slow)) func sweepReachesTheDSTEdges() throws {
        var reached: Set<String> = []
        var judgedDays = 0
        for transition in 1...6 {
            for seed in UInt64(1)...3 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "daily-reminder", seed: seed, parameters: ["transition": transition]))
                #expect(report.passed, "transition \(transition) seed \(seed): \(report.failure?.message ?? "")")
                for check in report.checks where check.kind == .sometimes && check.status == .reached { reached.insert(check.name) }
                judgedDays += report.checks.first { $0.name == "reminder-every-enabled-day" }?.observations ?? 0
            }
        }
        #expect(reached == Set(DailyReminderScenario().checks.filter { $0.kind == .sometimes }.map(\.name)))
        #expect(judgedDays > 200, "only \(judgedDays) days judged")
    }

    @Test(.ciOnly, .tags(.slow), arguments: [
        ("reminder-every-24h", ["reminder-at-local-time"]), ("reminder-utc-time", ["reminder-at-local-time"]),
        ("reminder-local-clock-match", ["reminder-at-local-time", "reminder-every-enabled-day", "one-reminder-per-local-day"]),
    ])
    func variantsAreCaught(variant: String, checks: [String]) throws {
        let caught = try caughtSeeds("daily-reminder", variant: variant, parameters: [:], strategy: .random, seeds: 1...10, enough: 10)
        #expect(caught.count >= 8, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { checks.contains($0.check) }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == "daily-reminder" })
    }

    /// With nobody changing settings, reminder-every-24h shows only across the DST change: an hour
    /// off on the changing zone's next day, and never before the change.
    @Test func every24hIsCaughtAtTheDSTChange() throws {
        for transition in [1, 6] {
            let (report, _) = try ScenarioRunner.run(RunRequest(
                scenario: "daily-reminder", seed: 1, parameters: ["transition": transition, "togglePercent": 0, "timeChangePercent": 0, "dstEdgePercent": 0],
                variant: "reminder-every-24h"))
            #expect(report.violation?.check == "reminder-at-local-time", "transition \(transition): \(report.violation?.message ?? "passed")")
            let zone = DailyReminderScenario.transitions[transition - 1].zone
            #expect(report.violation?.message.contains(zone) == true, "\(report.violation?.message ?? "")")
        }
    }

    @Test func catchUpNotLongerThanThePeriodIsRefused() throws {
        #expect(throws: ScenarioError.self) {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "daily-reminder", seed: 1, parameters: ["intervalMinutes": 15, "catchUpMinutes": 15]))
        }
    }

    /// A world-swarm world (non-preemptive): runs every 5 minutes with a 6-minute catch-up, so a
    /// reminder gets a single run, and FCM refuses a sixth of the pushes; the design drops such a
    /// day (no later run falls inside the catch-up) and the liveness check does not owe it.
    @Test func aRefusedPushWithNoLaterRunInTheCatchUpIsNotOwed() throws {
        var request = RunRequest(
            scenario: "daily-reminder", seed: 134, strategy: .nonpreemptive, parameters: ["catchUpMinutes": 6, "checkInPercent": 25])
        request.world = World(
            faults: [
                "contention-abort": 0.487, "fcm-token-failure": 0.1758, "latency-tails": 0.08, "network-failure": 0.2, "network-timeout": 0.016,
                "schedule-overlap": 1.0, "storage-upload-failure": 0.3, "trigger-duplicate": 0.0011, "trigger-reorder": 0.6,
            ],
            outages: [try #require(OutageDraw(argument: "storage:2.59:86:6523:0.49:down"))])
        let (report, _) = try ScenarioRunner.run(request)
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(report.checks.first { $0.name == "reminder-every-enabled-day" }?.status == .passed)
        let refused = report.timeline.filter { $0.event.hasPrefix("reminder push failed") }
        #expect(!refused.isEmpty, "a refused push the check forgives")
    }

    /// A refused push is retried when a later tick's run surely starts inside the catch-up.
    @Test func laterRunsInsideTheCatchUpAreOwed() {
        let ticks = DailyReminderScenario.Ticks(first: 300, interval: 300, jitter: 10)
        #expect(ticks.runStarts(after: 305, before: 600 + 300))
        #expect(!ticks.runStarts(after: 305, before: 600 + 10))
        #expect(ticks.runStarts(after: 100, before: 311))
        #expect(!ticks.runStarts(after: 300, before: 610))
    }

    /// The oracle's table (written from the tz database) against Foundation's zone data, hour by hour over 2026.
    @Test func oracleTableMatchesTheZoneData() throws {
        for zone in ReminderOracle.zones.keys.sorted() {
            let timeZone = try #require(TimeZone(identifier: zone))
            var t = ReminderOracle.validFrom
            while t < ReminderOracle.validUntil {
                #expect(ReminderOracle.offset(zone, at: t) == Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))), "\(zone) at \(t)")
                t += 1800
            }
        }
        // The table's change instants are where the offsets change.
        for transition in DailyReminderScenario.transitions {
            #expect(ReminderOracle.offset(transition.zone, at: transition.unixSeconds) != ReminderOracle.offset(transition.zone, at: transition.unixSeconds - 1))
        }
    }
}
