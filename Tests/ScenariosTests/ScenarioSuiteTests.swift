import FirebaseHarness
import Foundation
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// Seeds of a sweep on which `variant` of `scenario` failed, stopping after `enough` catches.
func caughtSeeds(_ scenario: String, variant: String?, strategy: SchedulingStrategy, seeds: ClosedRange<UInt64>, enough: Int = 3) throws -> [UInt64] {
    var caught: [UInt64] = []
    for seed in seeds where caught.count < enough {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: scenario, seed: seed, strategy: strategy, variant: variant))
        if !report.passed { caught.append(seed) }
    }
    return caught
}

@Suite struct ScenarioSuiteTests {
    init() { BuiltInScenarios.register() }

    @Test(arguments: ["auction-race", "like-storm", "seat-contention", "kiddush-booking"])
    func carefulDomainPassesOverManySeeds(scenario: String) throws {
        for strategy in [SchedulingStrategy.random, .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon)] {
            for seed in UInt64(1)...12 {
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: scenario, seed: seed, strategy: strategy))
                #expect(report.passed, "\(scenario) seed \(seed) \(strategy): \(report.failure?.message ?? "")")
                #expect(report.outcome == "finished")
                #expect(report.checks.contains { $0.kind == .always && $0.status == .passed })
            }
        }
    }

    /// Which seeds caught each variant (random and PCT), recorded in docs/scenarios.md.
    @Test(arguments: [
        ("auction-race", "buy-now-outside-transaction"), ("auction-race", "outbid-rereads-live-doc"), ("auction-race", "outbid-no-dedup"),
        ("auction-race", "outbid-self-notify"), ("auction-race", "total-pledged-increment"),
        ("like-storm", "like-arrayunion-increment"), ("like-storm", "unlike-nonliker-decrements"), ("like-storm", "reply-count-trigger-increment"),
        ("seat-contention", "seat-random-id"),
        ("kiddush-booking", "kiddush-random-id"), ("kiddush-booking", "kiddush-setdata-overwrite"), ("kiddush-booking", "kiddush-check-send-set"),
    ])
    func everyVariantIsCaught(scenario: String, variant: String) throws {
        let random = try caughtSeeds(scenario, variant: variant, strategy: .random, seeds: 1...60)
        let pct = try caughtSeeds(scenario, variant: variant, strategy: .pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon), seeds: 1...60)
        print("CAUGHT \(scenario) \(variant) random=\(random) pct3=\(pct)")
        #expect(!random.isEmpty, "\(variant) not caught with random over 60 seeds")
        #expect(!pct.isEmpty, "\(variant) not caught with pct:3 over 60 seeds")
    }

    /// Known gap: the burst model does not yet exhaust 5 attempts × ABORTED; recorded, not hidden.
    @Test func replayReproducesTheSameViolationAtTheSameStep() throws {
        let request = RunRequest(scenario: "like-storm", seed: 2, strategy: .pct(depth: 3, horizon: 2_000), variant: "unlike-nonliker-decrements")
        let (first, _) = try ScenarioRunner.run(request)
        let violation = try #require(first.violation)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rehearsal-replay-\(getpid())").path
        let folder = try ReportWriter.write(first, trace: [], to: directory)
        let artifact = try ReportWriter.read(folder + "/report.json")
        let (second, _) = try ScenarioRunner.run(try ScenarioRunner.request(replaying: artifact))
        #expect(second.violation == violation)
        #expect(second.traceHash == first.traceHash)
        #expect(second.steps == first.steps)
        #expect(!FileManager.default.fileExists(atPath: folder + "/report.json.tmp"))
    }

    @Test func impossibleParametersAreTypedErrors() {
        #expect(throws: ScenarioError.invalidParameter(name: "bidders", value: 1, reason: "must be in 2...60")) {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "auction-race", seed: 1, parameters: ["bidders": 1]))
        }
        #expect(throws: ScenarioError.self) { _ = try ScenarioRunner.prepare(RunRequest(scenario: "kiddush-booking", seed: 1, parameters: ["users": 2, "admins": 3])) }
        #expect(throws: ScenarioError.self) { _ = try ScenarioRunner.prepare(RunRequest(scenario: "seat-contention", seed: 1, variant: "kiddush-random-id")) }
        #expect(throws: ScenarioError.self) { _ = try ScenarioRunner.prepare(RunRequest(scenario: "nope", seed: 1)) }
        #expect(throws: ScenarioError.self) { _ = try ScenarioParameters.parsePairs(["bidders"]) }
    }

    @Test func thresholdsParseAndFail() throws {
        let threshold = try Threshold(parsing: "placeBid.p99<2s")
        #expect(threshold.operation == "placeBid" && threshold.statistic == .p99 && threshold.limitNanoseconds == 2_000_000_000)
        #expect(try Threshold(parsing: "like.p99.9<=250ms").statistic == .p999)
        #expect(throws: ScenarioError.self) { _ = try Threshold(parsing: "placeBid.p42<2s") }
        #expect(throws: ScenarioError.self) { _ = try Threshold(parsing: "placeBid.p99<fast") }
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "seat-contention", seed: 1, thresholds: [try Threshold(parsing: "reserveSeat.max<1us")]))
        #expect(!report.passed)
        #expect(report.failure?.kind == .threshold)
    }

    @Test func latencyExemplarsPointAtRecordedOperations() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "auction-race", seed: 5))
        let placeBid = try #require(report.latency.first { $0.operation == "placeBid" })
        #expect(placeBid.count > 10)
        #expect(placeBid.p50Nanoseconds <= placeBid.p99Nanoseconds && placeBid.p99Nanoseconds <= placeBid.maxNanoseconds + placeBid.maxNanoseconds / 500)
        let slowest = try #require(placeBid.exemplars.last)
        #expect(slowest.percentile == "max" && slowest.latencyNanoseconds == placeBid.maxNanoseconds && slowest.seed == 5)
        #expect(placeBid.spectrum.contains("Percentile") && placeBid.spectrum.contains("#[Max"))
        let (again, _) = try ScenarioRunner.run(RunRequest(scenario: "auction-race", seed: 5))
        #expect(again.latency == report.latency, "same seed, same latency and exemplars")
        #expect(RunRequest(scenario: "auction-race", seed: 5, strategy: .pct(depth: 3, horizon: nil)).runId == "auction-race-s5-pct-3-careful")
    }

    @Test func reportsAreSelfContained() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "kiddush-booking", seed: 3, variant: "kiddush-random-id"))
        let html = ReportWriter.html(report)
        #expect(html.contains("<svg") && html.contains("FAIL"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script src"))
        #expect(ReportWriter.markdown(report).contains("rehearse run kiddush-booking --seed 3"))
        let data = try ReportFormat.jsonEncoder().encode(report)
        #expect(try JSONDecoder().decode(RunReport.self, from: data) == report)
    }
}
