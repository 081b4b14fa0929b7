import Foundation
import Histogram

extension SweepResult {
    /// Reads a shard result file and validates it (`validate`): every problem is one line
    /// naming the file.
    package static func read(_ path: String) throws(ScenarioError) -> SweepResult {
        let data = try InputFile.read(path, limit: ScenarioLimits.maxArtifactBytes)
        try InputFile.requireSchemaVersion(data, path: path, expected: currentSchemaVersion, what: "a sweep result")
        let result = try InputFile.decode(SweepResult.self, from: data, path: path, what: "a sweep result")
        if let problem = result.problem() {
            throw .unreadableArtifact(path: path, reason: "inconsistent sweep result: \(problem)")
        }
        return result
    }

    /// The first inconsistency of a decoded result (nil: consistent): ranges well-formed, sorted
    /// and disjoint, counts non-negative and equal to the seeds the ranges cover, failures and
    /// sampled seeds inside the ranges, one latency entry per operation.
    package func problem() -> String? {
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
        // The summary fields must be the decoded histogram's (the histogram itself was validated when decoded).
        for entry in latency {
            guard let stated = entry.stated else { continue }
            let actual = entry.summary
            guard stated.count == actual.count else { return "latency of \(entry.operation): count \(stated.count) differs from its histogram's \(actual.count)" }
            guard stated == actual else { return "latency of \(entry.operation): p50/p99/maxMicroseconds differ from its histogram's" }
        }
        return nil
    }
}
