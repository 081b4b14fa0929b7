import Sim

/// The result of one scenario run, as written to `report.json` (schema-versioned).
public struct RunReport: Sendable, Hashable, Codable, IdentifiedRun {
    /// The `schemaVersion` this build writes and reads.
    package static let currentSchemaVersion = 1

    /// Why a run failed, if it did.
    public struct Failure: Sendable, Hashable, Codable {
        /// What failed: an invariant, the kernel, the harness, a threshold, a load run's drain.
        public let kind: FailureKind
        /// What failed, in one line.
        public let message: String

        /// A failure of `kind` saying `message`.
        package init(kind: FailureKind, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    /// One check's status in this run.
    public struct CheckResult: Sendable, Hashable, Codable {
        /// The check's name.
        public let name: String
        /// Always, Sometimes or Eventually.
        public let kind: CheckDeclaration.Kind
        /// What the check asserts.
        public let summary: String
        /// `passed`, `violated`, `not-checked` (Always/Eventually); `reached`, `not-reached` (Sometimes);
        /// `unreachable` (either kind) when the run's parameters rule the check out.
        public let status: CheckStatus
        /// How often the run evaluated it.
        public let observations: Int
        /// Why the parameters make the check unreachable (status `unreachable` only).
        public var unreachableReason: String? = nil

        /// One check's status as a report states it.
        package init(
            name: String, kind: CheckDeclaration.Kind, summary: String, status: CheckStatus, observations: Int, unreachableReason: String? = nil
        ) {
            self.name = name
            self.kind = kind
            self.summary = summary
            self.status = status
            self.observations = observations
            self.unreachableReason = unreachableReason
        }
    }

    /// One threshold's verdict.
    public struct ThresholdResult: Sendable, Hashable, Codable {
        /// The threshold as given (`placeBid.p99<2s`).
        public let expression: String
        /// The statistic the run measured, nil without samples.
        public let observedNanoseconds: UInt64?
        /// Whether the threshold held.
        public let passed: Bool

        /// A threshold's verdict (`observedNanoseconds` nil: no samples).
        package init(expression: String, observedNanoseconds: UInt64?, passed: Bool) {
            self.expression = expression
            self.observedNanoseconds = observedNanoseconds
            self.passed = passed
        }
    }

    /// The file format version (`currentSchemaVersion`).
    public var schemaVersion = RunReport.currentSchemaVersion
    /// The report folder's name: `<scenario>-s<seed>-<strategy>-<variant>` as requested.
    public var runId: String
    /// Which run this is (scenario, seed, strategy, variant, parameters, swarm), read through
    /// `IdentifiedRun`'s forwarding properties; in JSON its fields are keys of this object.
    public var identity: RunIdentity

    /// True when no check, threshold or kernel outcome failed the run.
    public var passed: Bool
    /// Why the run failed, nil when it passed.
    public var failure: Failure?
    /// The first violated check, if any.
    public var violation: InvariantViolation?
    /// How the simulation ended (`finished`, `deadlock`, `stopped-by-violation`, …).
    public var outcome: String
    /// The outcome in one line, with its details.
    public var outcomeDetail: String
    /// Jobs the kernel ran (iterations for a load run).
    public var steps: UInt64
    /// Virtual time the run took.
    public var virtualNanoseconds: UInt64
    /// The run's trace hash: same seed, same binary, same hash.
    public var traceHash: String
    /// The binary the run belongs to.
    public var build: BuildFingerprint
    /// Every declared check with its status.
    public var checks: [CheckResult]
    /// Per operation, its latency summary.
    public var latency: [LatencySummary]
    /// Each requested threshold's verdict.
    public var thresholds: [ThresholdResult]
    /// The users' and the backend's events, by time (capped).
    public var timeline: [TimelineEntry]
    /// Samples beyond the cap, left out of the summaries.
    public var droppedLatencySamples: Int
    /// Timeline entries beyond the cap.
    public var droppedTimelineEntries: Int
    /// The command that reproduces this run.
    public var replayCommand: String
    /// True when the run replayed a decisions log (a shrunk case) rather than its strategy.
    public var replayedDecisions: Bool? = nil
    /// `wall` for a load run (`rehearse load`: real runtime, wall-clock latency; then
    /// `virtualNanoseconds` holds wall time elapsed); absent (read as `virtual`) for simulated runs.
    public var clock: ClockKind? = nil
    /// The load run's model, rates and errors (load runs only).
    public var load: LoadSummary? = nil
    /// The timing window the run used (timers this close are ordered by the strategy); absent in
    /// reports written before timing choices existed (read as 0).
    public var timingWindowNanoseconds: UInt64? = nil
    /// Choice points the strategy decided (steps with several ready jobs plus timing choices).
    public var choicePoints: Int? = nil
    /// How many of `choicePoints` ordered nearly simultaneous timers.
    public var timingChoicePoints: Int? = nil
    /// Per fault kind: chances, expected and observed injections (absent in older reports).
    public var faults: [FaultObservation]? = nil
    /// Per declared callable, trigger, scheduled job and security rule of the run's backends: how
    /// often it ran (0: never exercised). Absent in older reports and for runs without a backend.
    public var coverage: [CoverageEntry]? = nil
    /// A failing run's story (`FailureStory`), with each user operation's start and end where its
    /// latency sample is known; absent for passing runs and in older reports.
    public var story: [StoryLine]? = nil
    /// How virtual time maps to the calendar (UTC, and users' time zones in calendar-based
    /// scenarios); absent for runs without a backend and in older reports.
    public var calendar: ReportCalendar? = nil
    /// The failure artifact this run replayed (`rehearse replay`), with what shrinking removed.
    public var replayOf: ReplaySource? = nil

    /// Always/Eventually checks this run never evaluated: it passed without exercising them.
    package var notChecked: [String] { checks.filter { $0.status == .notChecked }.map(\.name) }

    /// `virtual` (simulated run) or `wall` (load run).
    package var clockKind: ClockKind { clock ?? .virtual }
}

extension RunReport {
    private enum CodingKeys: String, CodingKey { case schemaVersion, runId, passed, failure, violation, outcome, outcomeDetail, steps, virtualNanoseconds, traceHash, build, checks, latency, thresholds, timeline, droppedLatencySamples, droppedTimelineEntries, replayCommand, replayedDecisions, clock, load, timingWindowNanoseconds, choicePoints, timingChoicePoints, faults, coverage, story, calendar, replayOf }

    /// Reads the identity's keys and the rest from one JSON object.
    public init(from decoder: any Decoder) throws {
        identity = try RunIdentity(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        runId = try container.decode(String.self, forKey: .runId)
        passed = try container.decode(Bool.self, forKey: .passed)
        failure = try container.decodeIfPresent(Failure.self, forKey: .failure)
        violation = try container.decodeIfPresent(InvariantViolation.self, forKey: .violation)
        outcome = try container.decode(String.self, forKey: .outcome)
        outcomeDetail = try container.decode(String.self, forKey: .outcomeDetail)
        steps = try container.decode(UInt64.self, forKey: .steps)
        virtualNanoseconds = try container.decode(UInt64.self, forKey: .virtualNanoseconds)
        traceHash = try container.decode(String.self, forKey: .traceHash)
        build = try container.decode(BuildFingerprint.self, forKey: .build)
        checks = try container.decode([CheckResult].self, forKey: .checks)
        latency = try container.decode([LatencySummary].self, forKey: .latency)
        thresholds = try container.decode([ThresholdResult].self, forKey: .thresholds)
        timeline = try container.decode([TimelineEntry].self, forKey: .timeline)
        droppedLatencySamples = try container.decode(Int.self, forKey: .droppedLatencySamples)
        droppedTimelineEntries = try container.decode(Int.self, forKey: .droppedTimelineEntries)
        replayCommand = try container.decode(String.self, forKey: .replayCommand)
        replayedDecisions = try container.decodeIfPresent(Bool.self, forKey: .replayedDecisions)
        clock = try container.decodeIfPresent(ClockKind.self, forKey: .clock)
        load = try container.decodeIfPresent(LoadSummary.self, forKey: .load)
        timingWindowNanoseconds = try container.decodeIfPresent(UInt64.self, forKey: .timingWindowNanoseconds)
        choicePoints = try container.decodeIfPresent(Int.self, forKey: .choicePoints)
        timingChoicePoints = try container.decodeIfPresent(Int.self, forKey: .timingChoicePoints)
        faults = try container.decodeIfPresent([FaultObservation].self, forKey: .faults)
        coverage = try container.decodeIfPresent([CoverageEntry].self, forKey: .coverage)
        story = try container.decodeIfPresent([StoryLine].self, forKey: .story)
        calendar = try container.decodeIfPresent(ReportCalendar.self, forKey: .calendar)
        replayOf = try container.decodeIfPresent(ReplaySource.self, forKey: .replayOf)
    }

    /// Writes the identity's keys and the rest into one JSON object.
    public func encode(to encoder: any Encoder) throws {
        try identity.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(runId, forKey: .runId)
        try container.encode(passed, forKey: .passed)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encodeIfPresent(violation, forKey: .violation)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(outcomeDetail, forKey: .outcomeDetail)
        try container.encode(steps, forKey: .steps)
        try container.encode(virtualNanoseconds, forKey: .virtualNanoseconds)
        try container.encode(traceHash, forKey: .traceHash)
        try container.encode(build, forKey: .build)
        try container.encode(checks, forKey: .checks)
        try container.encode(latency, forKey: .latency)
        try container.encode(thresholds, forKey: .thresholds)
        try container.encode(timeline, forKey: .timeline)
        try container.encode(droppedLatencySamples, forKey: .droppedLatencySamples)
        try container.encode(droppedTimelineEntries, forKey: .droppedTimelineEntries)
        try container.encode(replayCommand, forKey: .replayCommand)
        try container.encodeIfPresent(replayedDecisions, forKey: .replayedDecisions)
        try container.encodeIfPresent(clock, forKey: .clock)
        try container.encodeIfPresent(load, forKey: .load)
        try container.encodeIfPresent(timingWindowNanoseconds, forKey: .timingWindowNanoseconds)
        try container.encodeIfPresent(choicePoints, forKey: .choicePoints)
        try container.encodeIfPresent(timingChoicePoints, forKey: .timingChoicePoints)
        try container.encodeIfPresent(faults, forKey: .faults)
        try container.encodeIfPresent(coverage, forKey: .coverage)
        try container.encodeIfPresent(story, forKey: .story)
        try container.encodeIfPresent(calendar, forKey: .calendar)
        try container.encodeIfPresent(replayOf, forKey: .replayOf)
    }
}
