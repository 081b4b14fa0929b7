@testable import FirebaseHarness
import Foundation
@testable import Harness
@testable import Scenarios
import Testing

/// Load runs in virtual time (`LoadRunner.runVirtual`): k6's executor shapes, reproducibility by
/// seed, bounded memory (dropped arrivals at `maxVUs`, fixed-size measurements), thresholds, and
/// every profile producing a report.
@Suite struct VirtualLoadTests {
    init() { BuiltInScenarios.register() }

    static func request(
        _ scenario: String = "auction-race", _ executor: LoadExecutor = .constantArrivalRate(rate: 50, duration: .seconds(2)),
        seed: UInt64 = 7, maxVUs: Int = 10_000, thresholds: [Threshold] = [], variant: String? = nil
    ) -> LoadRequest {
        LoadRequest(scenario: scenario, executor: executor, clock: .virtual, variant: variant, thresholds: thresholds, seed: seed, maxVUs: maxVUs, commandLine: "test")
    }

    static func json(_ report: RunReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(report)
    }

    @Test func sameSeedSameReportBytes() throws {
        let first = LoadRunner.runVirtual(Self.request())
        let second = LoadRunner.runVirtual(Self.request())
        #expect(first.passed, "\(first.failure?.message ?? "")")
        #expect(first.clock == .virtual)
        #expect(first.load?.iterationsStarted == 100)  // 50/s for 2 s
        #expect(try Self.json(first) == Self.json(second))
        let other = LoadRunner.runVirtual(Self.request(seed: 8))
        #expect(other.traceHash != first.traceHash, "another seed is another run")
    }

    @Test func arrivalsBeyondMaxVUsAreDroppedAndCounted() {
        let report = LoadRunner.runVirtual(Self.request("auction-race", .constantArrivalRate(rate: 400, duration: .seconds(1)), maxVUs: 5))
        let load = try! #require(report.load)
        #expect(load.peakInFlight <= 5)
        #expect(load.droppedIterations > 0)
        #expect(load.iterationsStarted + load.droppedIterations == 400)
        #expect(load.iterationsCompleted == load.iterationsStarted)
    }

    @Test func missedThresholdFailsTheRun() throws {
        let threshold = try Threshold(parsing: "placeBid.p99<1ns")
        let report = LoadRunner.runVirtual(Self.request(thresholds: [threshold]))
        #expect(!report.passed)
        #expect(report.failure?.kind == .threshold)
        #expect(report.thresholds.first?.passed == false)
    }

    @Test func closedModelRampsVUs() {
        let executor = LoadExecutor.rampingVUs(startVUs: 0, stages: [LoadStage(duration: .seconds(2), target: 4), LoadStage(duration: .seconds(2), target: 0)])
        let report = LoadRunner.runVirtual(Self.request("like-storm", executor))
        let load = report.load
        #expect(report.passed, "\(report.failure?.message ?? "")")
        #expect(load?.model == "closed")
        #expect(load?.virtualUsers == 4)
        #expect((load?.peakInFlight ?? 0) <= 4)
        #expect((load?.iterationsCompleted ?? 0) >= 4)
    }

    @Test(arguments: LoadProfile.all.map(\.scenario))
    func everyProfileProducesAVirtualReport(scenario: String) throws {
        let report = LoadRunner.runVirtual(Self.request(scenario, .constantArrivalRate(rate: 20, duration: .seconds(1))))
        #expect(report.load?.iterationsStarted == 20)
        #expect(report.load?.abandoned == 0)
        #expect(!report.latency.isEmpty)
        let profile = try #require(LoadProfile.named(scenario))
        #expect(report.latency.allSatisfy { profile.operations.contains($0.operation) })
    }

    @Test func aVariantRunsUnderTheSameProfile() {
        let careful = LoadRunner.runVirtual(Self.request())
        let variant = LoadRunner.runVirtual(Self.request(variant: "total-pledged-increment"))
        #expect(variant.variant == "total-pledged-increment")
        #expect(variant.runId.hasSuffix("-total-pledged-increment"))
        #expect(variant.traceHash != careful.traceHash)
    }

    // MARK: - Shapes and bounded measurements (no simulation)

    static func arrivals(_ executor: LoadExecutor) -> [UInt64] {
        var schedule = LoadArrivals(executor)
        var times: [UInt64] = []
        let end = LoadExecutor.nanoseconds(executor.duration)
        while let next = schedule.next(), next < end { times.append(next) }
        return times
    }

    @Test func constantArrivalRateIsEvenlySpaced() {
        let times = Self.arrivals(.constantArrivalRate(rate: 10, duration: .seconds(1)))
        #expect(times == (0..<10).map { UInt64($0) * 100_000_000 })
    }

    @Test func rampingArrivalRateFollowsTheArea() {
        // 10 → 40/s over 1 s: area 25; then 40/s for 1 s: 40 more; then 40 → 0 over 2 s: 40 more.
        let stages = [LoadStage(duration: .seconds(1), target: 40), LoadStage(duration: .seconds(1), target: 40), LoadStage(duration: .seconds(2), target: 0)]
        let times = Self.arrivals(.rampingArrivalRate(startRate: 10, stages: stages))
        #expect(times.count == 105)
        #expect(times.count { $0 < 1_000_000_000 } == 25)
        #expect(times.count { $0 >= 1_000_000_000 && $0 < 2_000_000_000 } == 40)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        // The gaps shrink while the rate rises and grow while it falls.
        #expect(times[2] - times[1] > times[20] - times[19])
        #expect(times[104] - times[103] > times[70] - times[69])
    }

    @Test func vuScheduleActivatesEachVUWhenTheRampReachesIt() {
        let schedule = LoadVUSchedule(.rampingVUs(startVUs: 0, stages: [LoadStage(duration: .seconds(10), target: 10), LoadStage(duration: .seconds(10), target: 0)]))
        #expect(schedule.activation(of: 0, from: 0) == 1_000_000_000)  // one VU once the ramp passes 1
        #expect(schedule.activation(of: 9, from: 0) == 10_000_000_000)
        #expect(schedule.activation(of: 4, from: 7_000_000_000) == 7_000_000_000)  // already active
        #expect(schedule.activation(of: 9, from: 10_000_000_001) == nil)  // the ramp down never reaches 10 again
    }

    @Test func measurementsDoNotGrowWithSamples() {
        let metrics = LoadMetrics(span: 1_000_000_000)
        for index in 0..<100_000 {
            metrics.record("op", intended: UInt64(index) * 10_000, end: UInt64(index) * 10_000 + UInt64(index % 977) * 1_000, failed: index % 10 == 0)
        }
        let operation = try! #require(metrics.snapshot.operations["op"])
        #expect(operation.count == 100_000)
        #expect(operation.failed == 10_000)
        #expect(operation.fastest.count == ScenarioLimits.maxSeriesPoints / 2)
        let summary = LatencySummary(operation: "op", measured: operation, seed: 1)
        #expect(summary.maxNanoseconds == 976_000)
        #expect(summary.series.count <= ScenarioLimits.maxSeriesPoints)
        #expect(summary.p50Nanoseconds > 400_000 && summary.p50Nanoseconds < 600_000)
    }
}
