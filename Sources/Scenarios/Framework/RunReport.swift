import Domain
import Sim
/// The result of one scenario run, as written to `report.json` (schema-versioned).
public struct RunReport: Sendable, Hashable, Codable {
    public static let currentSchemaVersion = 1

    /// Why a run failed, if it did.
    public struct Failure: Sendable, Hashable, Codable {
        /// What failed: an invariant, the kernel, the harness, a threshold, a load run's drain.
        public let kind: FailureKind
        /// What failed, in one line.
        public let message: String

        /// A failure of `kind` saying `message`.
        public init(kind: FailureKind, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    /// One check's status in this run.
    public struct CheckResult: Sendable, Hashable, Codable {
        public let name: String
        public let kind: CheckDeclaration.Kind
        public let summary: String
        /// `passed`, `violated`, `not-checked` (Always/Eventually); `reached`, `not-reached` (Sometimes);
        /// `unreachable` (either kind) when the run's parameters rule the check out.
        public let status: CheckStatus
        public let observations: Int
        /// Why the parameters make the check unreachable (status `unreachable` only).
        public var unreachableReason: String? = nil

        /// One check's status as a report states it.
        public init(
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
        public let expression: String
        public let observedNanoseconds: UInt64?
        public let passed: Bool

        /// A threshold's verdict (`observedNanoseconds` nil: no samples).
        public init(expression: String, observedNanoseconds: UInt64?, passed: Bool) {
            self.expression = expression
            self.observedNanoseconds = observedNanoseconds
            self.passed = passed
        }
    }

    public var schemaVersion = RunReport.currentSchemaVersion
    public var runId: String
    public var scenario: String
    public var seed: UInt64
    public var strategy: String
    public var variant: String?
    public var parameters: [String: Int]
    public var passed: Bool
    public var failure: Failure?
    public var violation: InvariantViolation?
    public var outcome: String
    public var outcomeDetail: String
    public var steps: UInt64
    public var virtualNanoseconds: UInt64
    public var traceHash: String
    public var build: BuildFingerprint
    public var checks: [CheckResult]
    public var latency: [LatencySummary]
    public var thresholds: [ThresholdResult]
    public var timeline: [TimelineEntry]
    public var droppedLatencySamples: Int
    public var droppedTimelineEntries: Int
    /// The command that reproduces this run.
    public var replayCommand: String
    /// The swarm of fault kinds this run had (absent: the scenario's own faults).
    public var swarm: SwarmConfiguration? = nil
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
    public var coverage: [CoverageCount]? = nil
    /// A failing run's story (`FailureStory`), with each user operation's start and end where its
    /// latency sample is known; absent for passing runs and in older reports.
    public var story: [StoryLine]? = nil
    /// How virtual time maps to the calendar (UTC, and users' time zones in calendar-based
    /// scenarios); absent for runs without a backend and in older reports.
    public var calendar: ReportCalendar? = nil
    /// The failure artifact this run replayed (`rehearse replay`), with what shrinking removed.
    public var replayOf: ReplaySource? = nil

    /// Always/Eventually checks this run never evaluated: it passed without exercising them.
    public var notChecked: [String] { checks.filter { $0.status == .notChecked }.map(\.name) }

    /// `virtual` (simulated run) or `wall` (load run).
    public var clockKind: ClockKind { clock ?? .virtual }
}
