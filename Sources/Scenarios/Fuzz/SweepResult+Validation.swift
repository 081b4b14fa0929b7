import Foundation
import Histogram

extension SweepResult {
    /// Reads a shard result file and validates it (`validate`): every problem is one line
    /// naming the file.
    public static func read(_ path: String) throws(ScenarioError) -> SweepResult {
        let data = try InputFile.read(path)
        try InputFile.requireSchemaVersion(data, path: path, expected: currentSchemaVersion, what: "a sweep result")
        let result = try InputFile.decode(SweepResult.self, from: data, path: path, what: "a sweep result")
        if let problem = result.problem() ?? histogramProblem(data) {
            throw .unreadableArtifact(path: path, reason: "inconsistent sweep result: \(problem)")
        }
        return result
    }

    /// The first inconsistency of a decoded result (nil: consistent): ranges well-formed, sorted
    /// and disjoint, counts non-negative and equal to the seeds the ranges cover, failures and
    /// sampled seeds inside the ranges, one latency entry per operation.
    public func problem() -> String? {
        var covered: UInt64 = 0
        var previous: SeedRange?
        for range in ranges {
            guard range.low < range.high else { return "range \(range.low)..<\(range.high) is empty or inverted" }
            guard range.high - range.low <= UInt64(ScenarioLimits.maxSweepSeeds) else {
                return "range \(range) has more than \(ScenarioLimits.maxSweepSeeds) seeds (ScenarioLimits.maxSweepSeeds)"
            }
            if let previous, previous.high > range.low { return "ranges \(previous) and \(range) overlap or are out of order" }
            covered += range.high - range.low
            guard covered <= UInt64(ScenarioLimits.maxSweepSeeds) * 1_000 else { return "the ranges cover too many seeds" }
            previous = range
        }
        if let requested {
            guard requested.low < requested.high else { return "requested range \(requested.low)..<\(requested.high) is empty or inverted" }
            if let outside = ranges.first(where: { $0.low < requested.low || $0.high > requested.high }) {
                return "range \(outside) lies outside the requested \(requested)"
            }
        }
        guard seedsRun >= 0, seedsPassed >= 0 else { return "seedsRun \(seedsRun) and seedsPassed \(seedsPassed) must not be negative" }
        guard seedsPassed <= seedsRun else { return "seedsPassed \(seedsPassed) exceeds seedsRun \(seedsRun)" }
        guard UInt64(seedsRun) == covered else { return "seedsRun \(seedsRun) but the ranges cover \(covered) seeds" }
        guard failures.count == seedsRun - seedsPassed else {
            return "\(failures.count) failures listed but seedsRun - seedsPassed is \(seedsRun - seedsPassed)"
        }
        func inside(_ seed: UInt64) -> Bool { ranges.contains { $0.low <= seed && seed < $0.high } }
        if let stray = failures.first(where: { !inside($0.seed) }) { return "failure of seed \(stray.seed) lies outside the ranges" }
        if let stray = determinismChecked.first(where: { !inside($0) }) { return "determinism-checked seed \(stray) lies outside the ranges" }
        guard Set(failures.map(\.seed)).count == failures.count else { return "a seed has more than one failure" }
        let operations = latency.map(\.operation)
        guard Set(operations).count == operations.count else { return "an operation has more than one latency entry" }
        return nil
    }

    /// Checks each encoded histogram against the layout a fresh one of the same range has, so a
    /// corrupted one is refused here rather than trapping inside HdrHistogram when merged.
    static func histogramProblem(_ data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let latency = object["latency"] as? [[String: Any]] else { return "field 'latency' is unreadable" }
        let encoder = JSONEncoder()
        for entry in latency {
            let name = entry["operation"] as? String ?? "?"
            guard let histogram = entry["histogram"] as? [String: Any],
                  let highest = (histogram["highestTrackableValue"] as? NSNumber)?.uint64Value,
                  highest >= 2, highest <= UInt64.max / 4 else { return "latency of \(name): histogram range is invalid" }
            var reference = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
            reference.autoResize = true
            guard let encoded = try? encoder.encode(reference),
                  let expected = try? JSONSerialization.jsonObject(with: encoded) as? [String: Any] else { return "latency of \(name): cannot check" }
            guard Set(histogram.keys) == Set(expected.keys) else { return "latency of \(name): histogram fields differ from this build's" }
            for key in expected.keys where key != "counts" && key != "maxValue" && key != "minNonZeroValue" && key != "_totalCount" && key != "autoResize" {
                guard "\(histogram[key]!)" == "\(expected[key]!)" else { return "latency of \(name): histogram field '\(key)' is inconsistent" }
            }
            guard let counts = histogram["counts"] as? [NSNumber], counts.count == (expected["counts"] as? [Any])?.count else {
                return "latency of \(name): histogram counts have the wrong length"
            }
            var total: UInt64 = 0
            for count in counts {
                let (sum, overflow) = total.addingReportingOverflow(count.uint64Value)
                guard !overflow, count.int64Value >= 0 || count.uint64Value > 0 else { return "latency of \(name): histogram counts overflow" }
                total = sum
            }
            guard (histogram["_totalCount"] as? NSNumber)?.uint64Value == total else { return "latency of \(name): histogram total differs from its counts" }
            // A recorded value may exceed the nominal range as long as its bucket exists: ask a
            // fixed-size copy of the reference whether the maximum has one.
            var fixed = reference
            fixed.autoResize = false
            guard let maxValue = (histogram["maxValue"] as? NSNumber)?.uint64Value, maxValue <= UInt64.max / 4, fixed.record(maxValue) else {
                return "latency of \(name): histogram maximum lies beyond its range"
            }
            guard let count = entry["count"] as? NSNumber, count.uint64Value == total else { return "latency of \(name): count differs from its histogram" }
        }
        return nil
    }
}
