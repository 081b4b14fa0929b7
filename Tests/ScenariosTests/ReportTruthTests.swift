import Domain
import FirebaseHarness
import Foundation
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// Plots and tables that tell the truth: the same numbers in the latency table and
/// the spectrum, the maximum always drawn, natural lane order, axes that reach the maximum; and
/// coverage that counts what ran without changing any run.
@Suite struct ReportTruthTests {
    init() { BuiltInScenarios.register() }

    func sample(_ latency: UInt64, end: UInt64, step: UInt64) -> LatencySample {
        LatencySample(operation: "op", user: "u\(step % 7)", intendedStartNanoseconds: end - latency, endNanoseconds: end, step: step)
    }

    /// The spectrum's value column (ms) and its footer's max.
    func spectrumValues(_ spectrum: String) -> (values: [Double], footerMax: Double?) {
        var values: [Double] = []
        var footerMax: Double?
        for line in spectrum.split(separator: "\n") {
            if line.hasPrefix("#[Max") { footerMax = Double(line.split(separator: "=")[1].split(separator: ",")[0].trimmingCharacters(in: .whitespaces)) }
            let columns = line.split(separator: " ")
            if columns.count >= 3, let value = Double(columns[0]), Double(columns[1]) != nil { values.append(value) }
        }
        return (values, footerMax)
    }

    @Test func tableAndSpectrumComeFromTheSameNumbers() {
        // Latencies that fall inside one HdrHistogram bucket near its bottom: a bucket midpoint
        // mean was above the max, and the bucket top was reported as the spectrum's max.
        let samples = (0..<50).map { sample(3_265_412_000 - UInt64($0) * 1_000, end: 10_000_000_000 + UInt64($0) * 1_000_000, step: UInt64($0)) }
        let summary = LatencySummary(operation: "op", samples: samples, seed: 1)
        let (values, footerMax) = spectrumValues(summary.spectrum)
        #expect(summary.maxNanoseconds == 3_265_412_000)
        #expect(values.last == 3265.412 && footerMax == 3265.412, "spectrum max \(values.last ?? 0), footer \(footerMax ?? 0)")
        #expect(summary.meanNanoseconds <= summary.maxNanoseconds)
        #expect(summary.p50Nanoseconds == samples.map(\.latencyNanoseconds).sorted()[24])
        #expect(values.contains(Double(summary.p50Nanoseconds) / 1e6), "the table's p50 is a spectrum row")
        #expect(summary.spectrumPoints.last == [100, Double(summary.maxNanoseconds)])
    }

    @Test func oneSampleStillHasASpectrumAndAPlot() {
        let summary = LatencySummary(operation: "op", samples: [sample(42_000_000, end: 50_000_000, step: 1)], seed: 1)
        #expect(spectrumValues(summary.spectrum).values == [42, 42])
        #expect(summary.spectrumPoints.count == 2)
        let svg = ReportWriter.percentilePlotForTests(summary)
        #expect(svg.contains("<polyline") && svg.contains("max 42.0ms") && svg.contains("1 sample"))
    }

    @Test func thinningKeepsTheWorstPoint() {
        // 20,000 samples, the worst in the middle of a stretch an even stride would skip.
        var samples = (0..<20_000).map { sample(1_000_000 + UInt64($0 % 97) * 1_000, end: 3_000_000_000_000 + UInt64($0) * 1_000_000, step: UInt64($0)) }
        samples[10_001] = sample(2_515_000_000_000, end: samples[10_001].endNanoseconds, step: 10_001)
        let summary = LatencySummary(operation: "op", samples: samples, seed: 1)
        #expect(summary.series.count <= ScenarioLimits.maxSeriesPoints)
        #expect(summary.series.map { $0[1] }.max() == 2_515_000_000_000)
        #expect(summary.series.map { $0[1] }.min() == 1_000_000, "the fastest is kept too")
        #expect(summary.series.map { $0[0] } == summary.series.map { $0[0] }.sorted(), "in completion order")
    }

    @Test func lanesInNaturalOrderAndAxesReachTheMaximum() {
        let users = ["u10", "u2", "u1", "backend", "u11", "u0"].sorted(by: PlotAxis.naturalLess)
        #expect(users == ["backend", "u0", "u1", "u2", "u10", "u11"])
        for maximum in [1.0, 7.3, 3_265_412_000, 2_515_000_000_000, 999] {
            let ticks = PlotAxis.durationTicks(upTo: maximum)
            #expect(ticks.first == 0 && ticks.last! >= maximum && ticks.count >= 2, "\(maximum): \(ticks)")
        }
        // 41m55s: ticks every 10 minutes, not every 16m40s.
        #expect(PlotAxis.durationTicks(upTo: 2_515_000_000_000) == [0, 600, 1_200, 1_800, 2_400, 3_000].map { $0 * 1e9 })
        #expect(PlotAxis.utc(1_741_514_400_000_000_000) == "2025-03-09 10:00:00Z")
        #expect(PlotAxis.local(1_741_514_400_000_000_000, zoneIdentifier: "America/New_York") == "2025-03-09 06:00:00 −04:00")
    }

    @Test func coverageCountsDeclaredCodeAndLeavesTheTraceAlone() throws {
        let request = RunRequest(scenario: "auction-race", seed: 3, variant: "outbid-self-notify")
        let first = try ScenarioRunner.execute(request).report
        let second = try ScenarioRunner.execute(request).report
        let coverage = try #require(first.coverage)
        #expect(coverage == second.coverage && first.traceHash == second.traceHash)
        #expect(coverage.contains { $0.kind == "rule" && $0.invocations > 0 })
        #expect(coverage.contains { $0.kind == "trigger" && $0.invocations > 0 })
        #expect(coverage.contains { $0.invocations == 0 }, "declared code that never ran shows with 0")
        #expect(Set(coverage.map { "\($0.kind) \($0.name)" }).count == coverage.count)
        // The failing run's story: the violation last, at its step; user operations with spans.
        let story = try #require(first.story)
        #expect(story.last?.kind == .violation && story.last?.step == first.violation?.step)
        #expect(story.contains { $0.startNanoseconds != nil && $0.endNanoseconds! >= $0.startNanoseconds! })
        #expect(first.timeline.allSatisfy { $0.user == "backend" || $0.step != nil })
    }

    @Test func sweepCoverageSumsSeedsAndMerges() throws {
        let template = RunRequest(scenario: "like-storm", seed: 1, parameters: ["users": 2, "actionsPerUser": 3])
        let runner = try SweepRunner(template: template, swarm: true, determinismEvery: 0, failureDirectory: nil)
        var whole = try runner.emptyResult(range: SeedRange(low: 1, high: 7), shard: nil, build: BuildFingerprint(commit: "test"))
        var total: [CoverageEntry] = []
        for seed in 1..<7 as Range<UInt64> {
            let result = try runner.run(seed: seed).result
            total = CoverageEntry.combining(total, result.coverage ?? [])
            whole.add(result)
        }
        #expect(whole.coverage?.backend == total)
        #expect(whole.coverage?.strategies.values.reduce(0) { $0 + $1.seeds } == 6)
        let html = ReportWriter.sweepHTML(whole)
        #expect(html.contains("Backend coverage") && html.contains("<table class=\"coverage\">"))
    }
}
