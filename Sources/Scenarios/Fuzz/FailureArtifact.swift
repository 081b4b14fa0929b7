import Foundation
import Sim

/// A failing seed as a file that replays exactly (schema-versioned JSON, keys sorted): what ran,
/// the decisions log to replay (`.replay(decisions:)`, so a shrunk case reproduces although its
/// choices differ from the seed's strategy), what failed and where, and a short story.
public struct FailureArtifact: Sendable, Hashable, Codable {
    public static let currentSchemaVersion = 1

    /// What shrinking did (absent on an unshrunk artifact).
    public struct ShrinkSummary: Sendable, Hashable, Codable {
        public var parametersBefore: [String: Int]
        public var faultKindsBefore: [String]
        public var faultKindsAfter: [String]
        public var preemptionsBefore: Int
        public var preemptionsAfter: Int
        public var runs: Int
    }

    public var schemaVersion = FailureArtifact.currentSchemaVersion
    /// What failed: an invariant, the kernel, a threshold, a crash (the process died), nondeterminism.
    public var kind: FailureKind
    public var scenario: String
    public var seed: UInt64
    /// The strategy the seed ran with (the decisions log replaces it on replay).
    public var strategy: String
    public var variant: String?
    public var parameters: [String: Int]
    public var swarm: SwarmConfiguration?
    /// Replay these with `.replay(decisions:)`; empty for a crash (the seed's strategy replays it).
    public var decisions: [UInt32]
    public var violation: InvariantViolation?
    public var message: String
    /// The signal that killed the worker (kind `crash`).
    public var signal: Int32?
    public var steps: UInt64?
    public var traceHash: String?
    public var build: BuildFingerprint
    /// The few events that matter, in order, ending with the violation (≤ `FailureStory.maxLines`).
    public var story: [String]
    public var shrink: ShrinkSummary?
    /// The run's timing window (replay needs it: timing choices are in `decisions`); absent in
    /// artifacts written before timing choices existed (read as 0).
    public var timingWindowNanoseconds: UInt64?

    public init(
        kind: FailureKind, scenario: String, seed: UInt64, strategy: String, variant: String?, parameters: [String: Int],
        swarm: SwarmConfiguration?, decisions: [UInt32], violation: InvariantViolation?, message: String, signal: Int32? = nil,
        steps: UInt64? = nil, traceHash: String? = nil, build: BuildFingerprint, story: [String], shrink: ShrinkSummary? = nil,
        timingWindowNanoseconds: UInt64? = nil
    ) {
        self.timingWindowNanoseconds = timingWindowNanoseconds
        self.kind = kind; self.scenario = scenario; self.seed = seed; self.strategy = strategy; self.variant = variant
        self.parameters = parameters; self.swarm = swarm; self.decisions = decisions; self.violation = violation
        self.message = message; self.signal = signal; self.steps = steps; self.traceHash = traceHash; self.build = build
        self.story = story; self.shrink = shrink
    }

    /// The artifact of a failed run (`execution.report.passed == false`).
    public init(failed execution: ScenarioRunner.Execution, request: RunRequest, shrink: ShrinkSummary? = nil) {
        let report = execution.report
        precondition(!report.passed, "an artifact records a failed run")
        self.init(
            kind: report.failure?.kind ?? .invariant, scenario: report.scenario, seed: report.seed, strategy: report.strategy,
            variant: report.variant, parameters: report.parameters, swarm: report.swarm, decisions: execution.decisions,
            violation: report.violation, message: report.failure?.message ?? "", steps: report.steps, traceHash: report.traceHash,
            build: report.build,
            story: FailureStory.lines(
                timeline: report.timeline, violation: report.violation, failure: report.failure?.message,
                operations: report.violation.flatMap { violation in
                    (try? ScenarioRegistry.scenario(named: report.scenario))?.checks.first { $0.name == violation.check }?.operations
                } ?? []),
            shrink: shrink, timingWindowNanoseconds: report.timingWindowNanoseconds)
    }

    /// The request that replays this artifact through its decisions log (timing choices included,
    /// with the run's timing window); a crash through the seed's own strategy. Raw logs replay as
    /// well as shrunk ones since the kernel removes the chosen job from the ready set in place for
    /// every strategy (random's swap-remove once reordered the set, so a replayed log picked other
    /// jobs: heartbeat-timeline `random-alert-id` reproduced 0 of 16).
    public func replayRequest(gitCommit: String?) throws(ScenarioError) -> RunRequest {
        guard let parsed = SchedulingStrategy(parsing: strategy) else { throw .malformedStrategy(strategy) }
        return RunRequest(
            scenario: scenario, seed: seed, strategy: parsed, parameters: parameters, variant: variant, gitCommit: gitCommit,
            swarm: swarm, decisions: kind == .crash ? nil : decisions, timingWindowNanoseconds: timingWindowNanoseconds ?? 0)
    }

    /// What a replay must show: the same check at the same step (or the same failure kind).
    public var expectation: String {
        if let violation { return "\(violation.check) at step \(violation.step)" }
        if kind == .crash { return "crash (signal \(signal ?? 0))" }
        return "\(kind): \(message)"
    }

    /// The file name fuzz and shrink use: `<scenario>-s<seed>-<strategy>-<variant>[.shrunk].json`.
    public var fileName: String {
        let strategyPart = strategy.replacingOccurrences(of: ":", with: "-")
        return "\(scenario)-s\(seed)-\(strategyPart)-\(variant ?? "careful")\(shrink == nil ? "" : ".shrunk")\(kind == .crash ? ".crash" : "").json"
    }

    /// Sorted-keys JSON.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try! encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Writes the artifact atomically.
    public func write(to path: String) throws(AtomicFile.WriteError) {
        StaleTemporaryFiles.clean(beside: path)
        try AtomicFile.write(json(), to: path)
    }

    /// Reads an artifact read from `path`; nil when `data` is JSON of another shape (e.g. a
    /// report.json). Errors name `path` and the field.
    public static func decode(_ data: Data, path: String = "artifact") throws(ScenarioError) -> FailureArtifact? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["decisions"] != nil,
              object["kind"] != nil else { return nil }
        try InputFile.requireSchemaVersion(data, path: path, expected: currentSchemaVersion, what: "a failure artifact")
        return try InputFile.decode(FailureArtifact.self, from: data, path: path, what: "a failure artifact")
    }
}
