import Foundation
import Sim

/// A failing seed as a file that replays exactly (schema-versioned JSON, keys sorted): what ran,
/// the decisions log to replay (`.replay(decisions:)`, so a shrunk case reproduces although its
/// choices differ from the seed's strategy), what failed and where, and a short story.
public struct FailureArtifact: Sendable, Hashable, Codable, IdentifiedRun {
    /// The `schemaVersion` this build writes and reads.
    package static let currentSchemaVersion = 1

    /// What shrinking did (absent on an unshrunk artifact).
    public struct ShrinkSummary: Sendable, Hashable, Codable {
        /// Parameters before shrinking.
        public var parametersBefore: [String: Int]
        /// Swarm fault kinds before shrinking.
        public var faultKindsBefore: [String]
        /// Swarm fault kinds the shrunk case still needs.
        public var faultKindsAfter: [String]
        /// Non-default decisions before shrinking.
        public var preemptionsBefore: Int
        /// Non-default decisions after shrinking.
        public var preemptionsAfter: Int
        /// Runs shrinking took.
        public var runs: Int
        /// What the failure needs of its drawn world ("needs durationSeconds >= 3600", "fails only
        /// when seats < users"); absent for a failure in the default world.
        public var needs: [String]? = nil
        /// Whether the reported schedule has the fewest preemptions a failing schedule of this
        /// seed has (absent: not searched).
        public var scheduleSearch: ScheduleSearch? = nil
        /// True when the parameters are a local minimum: no single step of one parameter toward its
        /// minimum still fails; false when the shrink's budget ran out first (absent: not judged).
        public var parametersLocalMinimum: Bool? = nil

        /// How the parameters ended, as fuzz and a sweep's failure print it.
        public var parametersEnding: String? {
            parametersLocalMinimum.map { $0 ? "local minimum: no single step of one parameter toward its minimum still fails" : "not a local minimum: the shrink's budget ran out first" }
        }
    }

    /// The file format version (`currentSchemaVersion`).
    public var schemaVersion = FailureArtifact.currentSchemaVersion
    /// What failed: an invariant, the kernel, a threshold, a crash (the process died), nondeterminism.
    public var kind: FailureKind
    /// Which run this is (scenario, seed, strategy, variant, parameters, swarm), read through
    /// `IdentifiedRun`'s forwarding properties; in JSON its fields are keys of this object.
    public var identity: RunIdentity

    /// Replay these with `.replay(decisions:)`; empty for a crash (the seed's strategy replays it).
    public var decisions: [UInt32]
    /// The violated check and where, for invariant failures.
    public var violation: InvariantViolation?
    /// What failed, in one line.
    public var message: String
    /// The signal that killed the worker (kind `crash`).
    public var signal: Int32?
    /// Steps of the failing run (absent for a crash).
    public var steps: UInt64?
    /// The failing run's trace hash (absent for a crash).
    public var traceHash: String?
    /// The binary the artifact replays on.
    public var build: BuildFingerprint
    /// The few events that matter, in order, ending with the violation (≤ `FailureStory.maxLines`).
    public var story: [String]
    /// What shrinking removed, nil for an unshrunk artifact.
    public var shrink: ShrinkSummary?
    /// The run's timing window (replay needs it: timing choices are in `decisions`); absent in
    /// artifacts written before timing choices existed (read as 0).
    public var timingWindowNanoseconds: UInt64?

    /// The artifact of the run `identity`, which failed with `kind`.
    package init(
        kind: FailureKind, identity: RunIdentity, decisions: [UInt32], violation: InvariantViolation?, message: String,
        signal: Int32? = nil, steps: UInt64? = nil, traceHash: String? = nil, build: BuildFingerprint, story: [String],
        shrink: ShrinkSummary? = nil, timingWindowNanoseconds: UInt64? = nil
    ) {
        self.timingWindowNanoseconds = timingWindowNanoseconds
        self.kind = kind; self.identity = identity; self.decisions = decisions; self.violation = violation
        self.message = message; self.signal = signal; self.steps = steps; self.traceHash = traceHash; self.build = build
        self.story = story; self.shrink = shrink
    }

    /// The artifact of a failed run (`execution.report.passed == false`).
    package init(failed execution: ScenarioRunner.Execution, request: RunRequest, shrink: ShrinkSummary? = nil) {
        let report = execution.report
        precondition(!report.passed, "an artifact records a failed run")
        self.init(
            kind: report.failure?.kind ?? .invariant, identity: report.identity, decisions: execution.decisions,
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
    package func replayRequest(gitCommit: String?) throws(ScenarioError) -> RunRequest {
        try RunRequest(
            replaying: identity, gitCommit: gitCommit, decisions: kind == .crash ? nil : decisions,
            timingWindowNanoseconds: timingWindowNanoseconds ?? 0)
    }

    /// The reproduction of the artifact at `path`, as every finder prints it: the command line and
    /// the Swift call (`Rehearsal.replay(Type(), artifact:)`), which read the same file and so
    /// replay the same (shrunk) failure.
    package static func replayLines(path: String, scenario: String) -> [String] {
        let type = ScenarioRegistry.typeName(of: scenario) ?? "<\(scenario)'s Scenario type>"
        return ["  replay: \(ScenarioRegistry.commandName) replay \(path)", "  in Swift: \(swiftReplayCall(typeName: type, path: path))"]
    }

    /// `Rehearsal.replay(Type(), artifact: "path")`: the Swift call that replays the artifact at `path`.
    package static func swiftReplayCall(typeName: String, path: String) -> String {
        "Rehearsal.replay(\(typeName)(), artifact: \"\(path)\")"
    }

    /// What a replay must show: the same check at the same step (or the same failure kind).
    package var expectation: String {
        if let violation { return "\(violation.check) at step \(violation.step)" }
        if kind == .crash { return "crash (signal \(signal ?? 0))" }
        return "\(kind): \(message)"
    }

    /// The file name fuzz and shrink use: `<scenario>-s<seed>-<strategy>-<variant>[.shrunk].json`.
    package var fileName: String {
        "\(identity.runId)\(shrink == nil ? "" : ".shrunk")\(kind == .crash ? ".crash" : "").json"
    }

    /// Sorted-keys JSON.
    package func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try! encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Writes the artifact atomically.
    package func write(to path: String) throws(AtomicFile.WriteError) {
        StaleTemporaryFiles.clean(beside: path)
        try AtomicFile.write(json(), to: path)
    }

    /// Reads an artifact read from `path`; nil when `data` is JSON of another shape (e.g. a
    /// report.json). Errors name `path` and the field.
    package static func decode(_ data: Data, path: String = "artifact") throws(ScenarioError) -> FailureArtifact? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["decisions"] != nil,
              object["kind"] != nil else { return nil }
        try InputFile.requireSchemaVersion(data, path: path, expected: currentSchemaVersion, what: "a failure artifact")
        return try InputFile.decode(FailureArtifact.self, from: data, path: path, what: "a failure artifact")
    }
}

extension FailureArtifact {
    private enum CodingKeys: String, CodingKey { case schemaVersion, kind, decisions, violation, message, signal, steps, traceHash, build, story, shrink, timingWindowNanoseconds }

    /// Reads the identity's keys and the rest from one JSON object.
    public init(from decoder: any Decoder) throws {
        identity = try RunIdentity(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        kind = try container.decode(FailureKind.self, forKey: .kind)
        decisions = try container.decode([UInt32].self, forKey: .decisions)
        violation = try container.decodeIfPresent(InvariantViolation.self, forKey: .violation)
        message = try container.decode(String.self, forKey: .message)
        signal = try container.decodeIfPresent(Int32.self, forKey: .signal)
        steps = try container.decodeIfPresent(UInt64.self, forKey: .steps)
        traceHash = try container.decodeIfPresent(String.self, forKey: .traceHash)
        build = try container.decode(BuildFingerprint.self, forKey: .build)
        story = try container.decode([String].self, forKey: .story)
        shrink = try container.decodeIfPresent(ShrinkSummary.self, forKey: .shrink)
        timingWindowNanoseconds = try container.decodeIfPresent(UInt64.self, forKey: .timingWindowNanoseconds)
    }

    /// Writes the identity's keys and the rest into one JSON object.
    public func encode(to encoder: any Encoder) throws {
        try identity.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(kind, forKey: .kind)
        try container.encode(decisions, forKey: .decisions)
        try container.encodeIfPresent(violation, forKey: .violation)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(signal, forKey: .signal)
        try container.encodeIfPresent(steps, forKey: .steps)
        try container.encodeIfPresent(traceHash, forKey: .traceHash)
        try container.encode(build, forKey: .build)
        try container.encode(story, forKey: .story)
        try container.encodeIfPresent(shrink, forKey: .shrink)
        try container.encodeIfPresent(timingWindowNanoseconds, forKey: .timingWindowNanoseconds)
    }
}
