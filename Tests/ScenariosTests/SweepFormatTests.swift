import FirebaseHarness
import Foundation
import Harness
import Histogram
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// Sweep files (schema 3): histograms in HdrHistogram's compressed encoding survive a file round
/// trip, a corrupted one is refused naming the field, summaries must match their histogram;
/// thresholds over a merged sweep; the JUnit view of a sweep.
@Suite struct SweepFormatTests {
    init() { BuiltInScenarios.register() }

    static func sweep() throws -> SweepResult {
        let template = RunRequest(scenario: "like-storm", seed: 1, parameters: ["users": 2, "actionsPerUser": 3, "postDeletes": 0], variant: "unlike-nonliker-decrements")
        let runner = try SweepRunner(template: template, swarm: true, determinismEvery: 3, failureDirectory: nil)
        var result = try runner.emptyResult(range: SeedRange(low: 1, high: 7), shard: nil, build: BuildFingerprint(commit: "test"))
        for seed in 1..<7 as Range<UInt64> { result.add(try runner.run(seed: seed).result) }
        return result
    }

    func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "rehearse-sweepformat-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aSweepFileRoundTripsByteForByte() throws {
        let result = try Self.sweep()
        #expect(result.schemaVersion == 3 && !result.latency.isEmpty)
        let text = result.json()
        #expect(text.contains("\"histogram\":\"HISTFAAA"))
        let read = try SweepResult.read(try write(text))
        #expect(read.json() == text)
        for (a, b) in zip(read.latency, result.latency) { #expect(a.histogram == b.histogram) }
    }

    @Test func aCorruptedHistogramOrSummaryIsRefusedNamingIt() throws {
        let text = try Self.sweep().json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var latency = try #require(object["latency"] as? [[String: Any]])
        func file(_ change: (inout [String: Any]) -> Void) throws -> String {
            var entry = latency[0]
            change(&entry)
            var changed = object
            var list = latency
            list[0] = entry
            changed["latency"] = list
            return try write(String(decoding: try JSONSerialization.data(withJSONObject: changed, options: [.sortedKeys]), as: UTF8.self))
        }
        let cases: [(String, (inout [String: Any]) -> Void)] = [
            ("field 'latency[0].histogram' is invalid (not an HdrHistogram V2 compressed encoding: not base64", { $0["histogram"] = "HIST@@" }),
            ("field 'latency[0].histogram' is not a string", { $0["histogram"] = ["counts": [1, 2]] }),
            ("latency of like: count", { $0["count"] = (($0["count"] as? Int) ?? 0) + 1 }),
            ("p50/p99/maxMicroseconds differ from its histogram", { $0["maxMicroseconds"] = 1 }),
        ]
        latency[0]["operation"] = "like"
        for (message, change) in cases {
            let path = try file(change)
            #expect { _ = try SweepResult.read(path) } throws: { error in
                "\(error)".contains(path) && "\(error)".contains(message)
            }
        }
    }

    @Test func thresholdsAreJudgedOverTheMergedHistograms() throws {
        let result = try Self.sweep()
        let entry = try #require(result.latency.first)
        let histogram = entry.histogram
        let canonical = HdrHistogramCodec.canonical(histogram)
        #expect(result.latencyNanoseconds(entry.operation, .p99) == canonical.valueAtPercentile(99) * 1_000)
        #expect(result.latencyNanoseconds(entry.operation, .p50) == canonical.valueAtPercentile(50) * 1_000)
        #expect(result.latencyNanoseconds(entry.operation, .max) == histogram.max * 1_000)
        #expect(result.latencyNanoseconds("absent", .p50) == nil)
        let limit = canonical.valueAtPercentile(99) * 1_000
        let verdicts = result.evaluate([
            try Threshold(parsing: "\(entry.operation).p99<=\(limit)ns"), try Threshold(parsing: "\(entry.operation).p99<\(limit)ns"),
            try Threshold(parsing: "absent.p50<1s"),
        ])
        #expect(verdicts.map(\.passed) == [true, false, false])
        #expect(verdicts[2].observedNanoseconds == nil)
        var judged = result
        judged.mergeThresholds = verdicts
        #expect(!judged.passed)
        // A merge starts without them: they belong to the merge that judged them.
        #expect(try SweepResult.merge([judged]).mergeThresholds == nil)
    }

    @Test func theJUnitViewOfASweepHasACasePerCheckWithSeedsAndReplayLines() throws {
        var result = try Self.sweep()
        let failing = result.failures.filter { $0.kind == .invariant }
        #expect(!failing.isEmpty)
        // A crash without an artifact replays through the run line of its seed.
        var crash = SweepFailure(seed: 99, kind: .crash, check: nil, step: nil, message: "worker died with signal 11\u{1}", artifact: nil)
        crash.replayed = nil
        result.failures.append(crash)
        let report = JUnitReport.sweep(result, command: "rehearse fuzz")
        let cases = report.suites[0].cases
        #expect(cases.filter { $0.classname == "like-storm.check" }.map(\.name) == result.checks)
        #expect(cases.filter { $0.classname == "like-storm.sometimes" }.map(\.name) == result.goals)
        let violated = try #require(cases.first { $0.name == failing[0].check })
        guard case .failed(let message, let type, let details) = violated.outcome else { Issue.record("not failed"); return }
        #expect(type == "invariant" && message.hasPrefix("violated on \(failing.filter { $0.check == failing[0].check }.count) of 6 seeds: \(failing[0].seed)"))
        #expect(details.contains("seed \(failing[0].seed): invariant: ") && details.contains("replay: rehearse run like-storm --seed \(failing[0].seed) --strategy \(result.strategy)"))
        let crashCase = try #require(cases.first { $0.name == "crash" })
        guard case .failed(_, _, let crashDetails) = crashCase.outcome else { Issue.record("crash not failed"); return }
        #expect(crashDetails.contains("--swarm") && crashDetails.contains("--variant unlike-nonliker-decrements"))
        // Control characters cannot appear in XML 1.0: replaced, never written raw.
        #expect(!report.xml.contains("\u{1}") && report.xml.contains("signal 11\u{FFFD}"))
        // Newlines survive in element text and become references in attributes (a parser folds raw ones).
        let escaped = JUnitReport(name: "a\nb", suites: [.init(name: "s", properties: [("p", "x\ty")], cases: [
            .init(classname: "c", name: "n", outcome: .failed(message: "m1\nm2", type: "t", details: "d1\nd2 <&>"), output: nil),
        ])]).xml
        #expect(escaped.contains("<testsuites name=\"a&#10;b\"") && escaped.contains("value=\"x&#9;y\""))
        #expect(escaped.contains("message=\"m1&#10;m2\" type=\"t\">d1\nd2 &lt;&amp;&gt;</failure>"))
        #expect(report.failures == cases.filter { if case .failed = $0.outcome { true } else { false } }.count && report.tests == cases.count)
    }
}
