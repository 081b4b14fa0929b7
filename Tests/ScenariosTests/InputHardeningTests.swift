import FirebaseHarness
import Foundation
import Harness
import Histogram
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// Bad input found by generated malformed invocations: thresholds beyond UInt64,
/// misspelled operations, inconsistent shard results, unreadable input files.
@Suite struct InputHardeningTests {
    init() { BuiltInScenarios.register() }

    @Test(arguments: ["placeBid.p99<1e300ms", "placeBid.p99<1e300", "placeBid.p99<99999999999h", "placeBid.p99<18446744073709551616ns", ".p99<1s"])
    func thresholdsBeyondTheLimitAreBadInput(text: String) {
        #expect(throws: ScenarioError.self) { _ = try Threshold(parsing: text) }
    }

    @Test func aThresholdOfOneYearIsTheLimit() throws {
        #expect(try Threshold(parsing: "placeBid.p99<8760h").limitNanoseconds == ScenarioLimits.maxThresholdNanoseconds)
        #expect(throws: ScenarioError.self) { _ = try Threshold(parsing: "placeBid.p99<8761h") }
    }

    /// Every operation a scenario records is declared, so a threshold naming it is accepted,
    /// and a misspelled one is bad input instead of a run failing with "no samples".
    @Test(arguments: BuiltInScenarios.all.map(\.name))
    func declaredOperationsCoverTheRecordedOnes(scenario: String) throws {
        let declared = try ScenarioRegistry.scenario(named: scenario).operations
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: scenario, seed: 1))
        for summary in report.latency { #expect(declared.contains(summary.operation), "\(scenario) records undeclared \(summary.operation)") }
        let misspelled = RunRequest(scenario: scenario, seed: 1, thresholds: [try Threshold(parsing: "plceBid.p99<1s")])
        #expect(throws: ScenarioError.self) { _ = try ScenarioRunner.prepare(misspelled) }
    }

    @Test func seedRangesJoinAsSeedsFinish() {
        var ranges: [SeedRange] = []
        for seed in [5, 7, 3, 6, 4, 10, 4] as [UInt64] { SeedRange.insert(seed, into: &ranges) }
        #expect(ranges == [SeedRange(low: 3, high: 8), SeedRange(low: 10, high: 11)])
    }

    func sweep() -> SweepResult {
        var result = SweepResult(scenario: "crash-test", strategy: "random", variant: nil, parameters: [:], swarm: true,
                                 range: SeedRange(low: 1, high: 10), shard: nil, goals: [], build: BuildFingerprint(commit: "test"))
        for seed in [1, 2, 3] as [UInt64] {
            result.add(SweepSeedResult(seed: seed, passed: seed != 2, failure: seed == 2 ? SweepFailure(seed: 2, kind: .invariant, check: nil, step: nil, message: "m", artifact: nil) : nil,
                                       reached: [], deterministic: nil, histograms: [:]))
        }
        return result
    }

    /// A sweep that stopped early records only the seeds that ran (a merge must not count the rest).
    @Test func aSweepRecordsOnlyTheSeedsThatRan() {
        let result = sweep()
        #expect(result.ranges == [SeedRange(low: 1, high: 4)])
        #expect(result.requested == SeedRange(low: 1, high: 10))
        #expect(result.problem() == nil)
    }

    @Test func inconsistentShardResultsAreNamed() {
        var negative = sweep(); negative.seedsRun = -5
        #expect(negative.problem()?.contains("negative") == true)
        var inverted = sweep(); inverted.ranges = [try! JSONDecoder().decode(SeedRange.self, from: Data(#"{"low":9,"high":1}"#.utf8))]
        #expect(inverted.problem()?.contains("inverted") == true)
        var counted = sweep(); counted.seedsRun = 7
        #expect(counted.problem()?.contains("cover 3") == true)
        var failures = sweep(); failures.failures = []
        #expect(failures.problem() != nil)
    }

    @Test func shardFilesAreValidatedOnRead() throws {
        let folder = NSTemporaryDirectory() + "rehearse-input-\(getpid())-\(UInt64(Date().timeIntervalSince1970 * 1e6))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        /// `text` written as `name` must be refused with `reason`.
        func expectRefused(_ name: String, _ text: String, _ reason: String) throws {
            try AtomicFile.write(text, to: folder + "/" + name)
            #expect(throws: ScenarioError.unreadableArtifact(path: folder + "/" + name, reason: reason)) {
                _ = try SweepResult.read(folder + "/" + name)
            }
        }
        var bad = sweep(); bad.seedsPassed = 9
        try expectRefused("bad.json", bad.json(), "inconsistent sweep result: seedsPassed 9 exceeds seedsRun 3")
        try expectRefused(
            "future.json", sweep().json().replacingOccurrences(of: "\"schemaVersion\":\(SweepResult.currentSchemaVersion)", with: "\"schemaVersion\":7"),
            "schemaVersion 7 is not \(SweepResult.currentSchemaVersion), the version this build reads")
        try expectRefused(
            "missing.json", sweep().json().replacingOccurrences(of: "\"seedsRun\":3,", with: ""), "not a sweep result: field 'seedsRun' is missing")
        try expectRefused(
            "typed.json", sweep().json().replacingOccurrences(of: "\"seedsRun\":3", with: "\"seedsRun\":\"3\""),
            "not a sweep result: field 'seedsRun' is not an integer")
    }

    /// Pinned: a value below HdrHistogram's first bucket end (1,500 µs) leaves the nominal
    /// range at 2 while the maximum is 1,500; such a legitimate shard must still be read.
    @Test func smallLatenciesPassTheHistogramCheck() throws {
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        _ = histogram.record(1_500)
        var result = sweep()
        result.add(SweepSeedResult(seed: 4, passed: true, failure: nil, reached: [], deterministic: nil, histograms: ["placeBid": histogram]))
        let path = NSTemporaryDirectory() + "rehearse-small-latency-\(getpid()).json"
        try AtomicFile.write(result.json(), to: path)
        let read = try SweepResult.read(path)
        #expect(read.latency.first?.maxMicroseconds == 1_500)
    }

    /// A directory or FIFO given as input is said as such (a FIFO is never opened: no hang).
    @Test func inputsThatAreNotFilesAreSaidAsSuch() throws {
        let folder = NSTemporaryDirectory() + "rehearse-input-kinds-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        unlink(folder + "/fifo")
        #expect(mkfifo(folder + "/fifo", 0o644) == 0)
        #expect(throws: ScenarioError.unreadableArtifact(path: folder + "/fifo", reason: "it is a FIFO, not a regular file")) { _ = try InputFile.read(folder + "/fifo") }
        #expect(throws: ScenarioError.unreadableArtifact(path: folder, reason: "it is a directory, not a regular file")) { _ = try InputFile.read(folder) }
        #expect(throws: ScenarioError.unreadableArtifact(path: folder + "/none", reason: "no such file")) { _ = try InputFile.read(folder + "/none") }
    }
}
