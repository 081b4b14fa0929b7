import Domain
@testable import FirebaseHarness
import Foundation
@testable import Harness
@testable import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// Trust the verdict: the careful design passes pinned seeds (with their swarm and
/// parameters), goals and checks the parameters rule out are reported
/// rather than failed, never-evaluated checks fail a sweep, and email-shows-local-time has an
/// oracle of its own that catches a planted DST slip.
@Suite struct TrustTests {
    init() { BuiltInScenarios.register() }

    /// Runs `scenario` on `seed` with the seed's swarm, as `rehearse fuzz` does.
    static func swarmed(_ scenario: String, seed: UInt64, parameters: [String: Int] = [:]) throws -> RunReport {
        try ScenarioRunner.run(RunRequest(scenario: scenario, seed: seed, parameters: parameters, swarm: SwarmConfiguration.draw(seed: seed))).report
    }

    // MARK: The careful design on the seeds that once failed it

    /// like-storm seed 59 (swarm) and users=16: the reply counter's server transaction aborted on a
    /// busy parent post and, with trigger retries off, the count was lost ("replyCount 6 but 7
    /// replies"). The counter is idempotent and now deployed with retries.
    @Test func likeStormCountsEveryReplyUnderContention() throws {
        let swarmed = try Self.swarmed("like-storm", seed: 59)
        #expect(swarmed.passed, "\(swarmed.failure?.message ?? "")")
        let crowded = try ScenarioRunner.run(RunRequest(scenario: "like-storm", seed: 3, parameters: ["users": 16])).report
        #expect(crowded.passed, "\(crowded.failure?.message ?? "")")
    }

    /// nudge-storm seeds 14 and 343 (swarm): a Nudge All whose read of one friend's status failed
    /// (UNAVAILABLE / DEADLINE_EXCEEDED) threw away the nudges it had already sent. Seeds 431 and
    /// 1252 (swarm): a plan-day status whose set timed out was stored, but the check thought the
    /// user busy (nudge-all-only-free).
    @Test(arguments: [UInt64(14), 343, 431, 1252])
    func nudgeAllReportsItsNudgesWhenOneReadFails(seed: UInt64) throws {
        let report = try Self.swarmed("nudge-storm", seed: seed)
        #expect(report.passed, "\(report.failure?.message ?? "")")
    }

    /// kiddush-booking seed 63 (swarm): SendGrid's 429 outlasted the sender's retries after the
    /// email was claimed, so no booking email ever went out.
    @Test func kiddushEmailSurvivesRateLimiting() throws {
        let report = try Self.swarmed("kiddush-booking", seed: 63)
        #expect(report.passed, "\(report.failure?.message ?? "")")
    }

    /// heartbeat-timeline users=40 seed 179 (swarm): the second contact was emailed 152 ms after a
    /// check-in committed while the first contact's email was being sent.
    @Test func heartbeatStopsEmailingAfterAMidSendCheckIn() throws {
        let report = try Self.swarmed("heartbeat-timeline", seed: 179, parameters: ["users": 40])
        #expect(report.passed, "\(report.failure?.message ?? "")")
        let literal = try ScenarioRunner.run(RunRequest(
            scenario: "heartbeat-timeline", seed: 179, parameters: ["users": 40], variant: "no-heartbeat-recheck",
            swarm: SwarmConfiguration.draw(seed: 179))).report
        #expect(literal.violation?.check == "no-alert-after-checkin", "the variant without re-checks still sends after the check-in")
    }

    /// heartbeat-timeline seed 602 (portfolio member pct:2, swarm): the check took a check-in's
    /// request time for its commit. The request was at …159.7 ms, the sender's re-read of the user
    /// and the second contact's email at …176.5 ms, the check-in's transaction committed at
    /// …184.2 ms: the sender could not have seen it. A check-in closes a window when it commits.
    @Test func heartbeatCheckInClosesItsWindowWhenItCommits() throws {
        let report = try ScenarioRunner.run(RunRequest(
            scenario: "heartbeat-timeline", seed: 602, strategy: .pct(depth: 2, horizon: 33078),
            swarm: SwarmConfiguration.draw(seed: 602))).report
        #expect(report.passed, "\(report.failure?.message ?? "")")
    }

    /// stamp-collect users=30 (wrong check: user-index order vs sorted ids) and privacy-access
    /// users=40 (every "Sam Lee" drew the same ten username candidates).
    @Test func topOfTheDocumentedRangesPasses() throws {
        let stamps = try ScenarioRunner.run(RunRequest(scenario: "stamp-collect", seed: 1, parameters: ["users": 30])).report
        #expect(stamps.passed, "\(stamps.failure?.message ?? "")")
        let privacy = try ScenarioRunner.run(RunRequest(scenario: "privacy-access", seed: 1, parameters: ["users": 40])).report
        #expect(privacy.passed, "\(privacy.failure?.message ?? "")")
    }

    // MARK: Every scenario's backend takes the run's faults

    /// Two swarms (none vs. every kind at its highest rate) must change every scenario's run: a
    /// scenario that builds its backend without `context.faults` would run the same either way.
    @Test func everyScenarioAppliesTheSwarmsFaults() throws {
        let none = SwarmConfiguration(rates: [String: Double]())
        let all = SwarmConfiguration(rates: Dictionary(uniqueKeysWithValues: FirebaseSwarm.Kind.allCases.map { ($0, $0.rateRange.upperBound) }))
        let small: [String: [String: Int]] = ["heartbeat-timeline": ["users": 12, "hours": 30]]
        for scenario in BuiltInScenarios.all.map(\.name) where scenario != "crash-test" {
            let parameters = small[scenario] ?? [:]
            let quiet = try ScenarioRunner.run(RunRequest(scenario: scenario, seed: 2, parameters: parameters, swarm: none)).report
            let stormy = try ScenarioRunner.run(RunRequest(scenario: scenario, seed: 2, parameters: parameters, swarm: all)).report
            #expect(quiet.traceHash != stormy.traceHash, "\(scenario) ran the same with and without faults")
        }
    }

    // MARK: Reachability and coverage of checks

    @Test func goalsTheParametersRuleOutAreReportedNotFailed() throws {
        let runner = try SweepRunner(template: RunRequest(scenario: "auction-race", seed: 1), swarm: false, failureDirectory: nil)
        var sweep = try runner.emptyResult(range: SeedRange(low: 1, high: 2), shard: nil, build: BuildFingerprint(commit: "test"))
        #expect(sweep.unreachable.map(\.name) == ["bidder-names-current", "snipe-landed"])
        #expect(sweep.unreachable.first { $0.name == "snipe-landed" }?.reason == "sniperPercent=0 (needs >= 1)")
        #expect(sweep.unreachable.first { $0.name == "bidder-names-current" }?.reason == "renamePercent=0 (needs >= 1)")
        sweep.add(SweepSeedResult(seed: 1, passed: true, failure: nil, reached: ["bid-too-low", "outbid-sent", "sold-by-buy-now"],
                                  checked: sweep.checks, deterministic: nil, histograms: [:]))
        #expect(sweep.unreachedGoals.isEmpty && sweep.passed, "snipe-landed is unreachable at sniperPercent=0, so it does not fail the sweep")
        #expect(sweep.coverageSummary.contains("snipe-landed [sniperPercent=0 (needs >= 1)]"))
        // With snipers the goal is reachable again, and a sweep that never reached it fails.
        let sniping = try SweepRunner(template: RunRequest(scenario: "auction-race", seed: 1, parameters: ["sniperPercent": 50]), swarm: false, failureDirectory: nil)
        var reachable = try sniping.emptyResult(range: SeedRange(low: 1, high: 2), shard: nil, build: BuildFingerprint(commit: "test"))
        reachable.add(SweepSeedResult(seed: 1, passed: true, failure: nil, reached: ["bid-too-low", "outbid-sent", "sold-by-buy-now"],
                                      checked: reachable.checks, deterministic: nil, histograms: [:]))
        #expect(reachable.unreachedGoals == ["snipe-landed"] && !reachable.passed)
    }

    @Test func aSweepThatNeverEvaluatedACheckFails() throws {
        let runner = try SweepRunner(template: RunRequest(scenario: "kiddush-booking", seed: 1), swarm: false, failureDirectory: nil)
        var sweep = try runner.emptyResult(range: SeedRange(low: 1, high: 3), shard: nil, build: BuildFingerprint(commit: "test"))
        let evaluated = sweep.checks.filter { $0 != "rejection-says-already-booked" }
        for seed in UInt64(1)...2 {
            sweep.add(SweepSeedResult(seed: seed, passed: true, failure: nil, reached: ["date-already-booked", "date-rebooked"], checked: evaluated, deterministic: nil, histograms: [:]))
        }
        #expect(sweep.failures.isEmpty && !sweep.passed)
        #expect(sweep.neverChecked == ["rejection-says-already-booked"])
        #expect(sweep.coverageSummary.contains("not-checked"))
        // One seed that evaluated it is enough.
        sweep.add(SweepSeedResult(seed: 3, passed: true, failure: nil, reached: [], checked: ["rejection-says-already-booked"], deterministic: nil, histograms: [:]))
        #expect(sweep.passed)
    }

    @Test func aRunReportsTheChecksItNeverEvaluated() throws {
        // One user books alone: nobody is refused, so rejection-says-already-booked never runs
        // (and, without cancellations, the booking stands for the other checks).
        let report = try ScenarioRunner.run(RunRequest(scenario: "kiddush-booking", seed: 1, parameters: ["users": 1, "admins": 0, "cancelPercent": 0])).report
        #expect(report.passed)
        #expect(report.notChecked == ["rejection-says-already-booked"])
        #expect(report.checks.first { $0.name == "date-already-booked" }?.status == .unreachable)
        #expect(ReportWriter.markdown(report).contains("not checked in this run"))
    }

    /// privacy-access exists to attempt unauthorised reads: parameters that allow none are bad input.
    @Test(arguments: [("readPercent", 0), ("publicPercent", 100), ("communities", 1)])
    func privacyAccessRejectsParametersWithoutUnauthorisedReads(name: String, value: Int) {
        #expect {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "privacy-access", seed: 1, parameters: [name: value]))
        } throws: { error in
            guard case ScenarioError.brokenConstraint(_, let constraint, _) = error else { return false }
            return constraint.hasPrefix(name)
        }
    }

    // MARK: email-shows-local-time: an oracle of its own

    /// Known answers (what the POSIX locale prints), around each zone's 2026 transitions.
    static let knownAnswers: [(unixSeconds: Int64, zone: String, text: String)] = [
        (1_767_225_600, "America/Los_Angeles", "Dec 31, 2025 at 4:00 PM PST"),
        (1_772_963_999, "America/Los_Angeles", "Mar 8, 2026 at 1:59 AM PST"),
        (1_772_964_000, "America/Los_Angeles", "Mar 8, 2026 at 3:00 AM PDT"),
        (1_783_000_000, "America/Los_Angeles", "Jul 2, 2026 at 6:46 AM PDT"),
        (1_772_963_999, "America/New_York", "Mar 8, 2026 at 5:59 AM EDT"),
        (1_767_225_600, "America/New_York", "Dec 31, 2025 at 7:00 PM EST"),
        (1_772_964_000, "Europe/London", "Mar 8, 2026 at 10:00 AM GMT"),
        (1_774_746_000, "Europe/London", "Mar 29, 2026 at 2:00 AM GMT+1"),
        (1_774_746_000, "Asia/Tokyo", "Mar 29, 2026 at 10:00 AM GMT+9"),
        (1_775_318_399, "Australia/Sydney", "Apr 5, 2026 at 2:59 AM GMT+11"),
        (1_775_318_400, "Australia/Sydney", "Apr 5, 2026 at 2:00 AM GMT+10"),
        (1_767_225_600, "Australia/Sydney", "Jan 1, 2026 at 11:00 AM GMT+11"),
    ]

    @Test func oracleGivesTheKnownAnswers() {
        for answer in Self.knownAnswers {
            #expect(LocalTimeOracle.format(Timestamp(unixSeconds: answer.unixSeconds), timeZone: answer.zone) == answer.text)
        }
        #expect(LocalTimeOracle.format(Timestamp(unixSeconds: 0), timeZone: "Mars/Olympus") == nil)
    }

    /// The careful formatter agrees with the oracle every 20 minutes over 2026 (every transition
    /// of the five zones), and every zone the scenario uses has a reference.
    @Test func carefulFormatterAgreesWithTheOracle() {
        #expect(HeartbeatTimelineScenario.timeZones.allSatisfy { LocalTimeOracle.zones[$0] != nil })
        for zone in LocalTimeOracle.zones.keys.sorted() {
            var disagreements = 0
            for step in 0..<(365 * 72) {
                let instant = Timestamp(unixSeconds: 1_767_225_600 + Int64(step) * 1_200 + 7)
                let body = "Last check-in: \(SafeNSoundLastCheckInFormatter.format(instant, timeZoneIdentifier: zone))."
                if !HeartbeatTimelineScenario.emailShowsLocalTime(body: body, lastCheckIn: instant, timeZone: zone).holds { disagreements += 1 }
            }
            #expect(disagreements == 0, "\(zone): \(disagreements) instants disagree")
        }
    }

    /// A planted DST slip: a formatter that keeps the standard offset all year (the email says
    /// 2:00 AM PST where it is 3:00 AM PDT). The check built on the domain's formatter could not
    /// see it; the oracle does.
    @Test func plantedDSTSlipFailsTheCheck() {
        let slipped = DateFormatter()
        slipped.locale = Locale(identifier: "en_US_POSIX")
        slipped.dateFormat = "MMM d, yyyy 'at' h:mm a"
        slipped.timeZone = TimeZone(secondsFromGMT: -8 * 3600)!
        let afterSpringForward = Timestamp(unixSeconds: 1_772_964_000 + 3_600)  // 4:00 AM PDT
        let body = "User hasn't checked in. Last check-in: \(slipped.string(from: Date(timeIntervalSince1970: 1_772_967_600))) PDT."
        let verdict = HeartbeatTimelineScenario.emailShowsLocalTime(body: body, lastCheckIn: afterSpringForward, timeZone: "America/Los_Angeles")
        #expect(!verdict.holds)
        #expect(verdict.expected == "Mar 8, 2026 at 4:00 AM PDT")
        // Before the change the slip is invisible, as it should be (standard time is right then).
        let winter = Timestamp(unixSeconds: 1_767_225_600)
        let winterBody = "Last check-in: \(slipped.string(from: Date(timeIntervalSince1970: 1_767_225_600))) PST."
        #expect(HeartbeatTimelineScenario.emailShowsLocalTime(body: winterBody, lastCheckIn: winter, timeZone: "America/Los_Angeles").holds)
    }
}
