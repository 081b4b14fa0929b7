/// What one run produced: its outcome, size, virtual duration, trace hash and decisions log.
public struct SimulationResult<Output: Sendable>: Sendable {
    /// The configuration that produced this result (seed, strategy, limits), with the strategy
    /// resolved: a portfolio's member for the seed, PCT's measured horizon.
    public var configuration: SimulationConfiguration
    /// How the run ended.
    public var outcome: SimulationOutcome
    /// The root task's return value, when it finished.
    public var output: Output?
    /// Jobs run.
    public var steps: UInt64
    /// Virtual nanoseconds from start to end.
    public var virtualNanoseconds: UInt64
    /// The rolling hash of every decision and recorded event.
    public var traceHash: TraceHash
    /// Index chosen at each choice point (a step with more than one ready job, or several timers
    /// within the timing window); `.replay` of it reproduces the run.
    public var decisions: [UInt32]
    /// Choice points of the run (`decisions.count`, also when the log was not recorded).
    public var choicePoints = 0
    /// How many alternatives each choice point had, in log order, when the configuration's
    /// `recordsChoices` was on (else empty).
    public var choiceCounts: [UInt32] = []
    /// How many of `decisions` chose among timers (the rest chose among ready jobs).
    public var timingDecisions: UInt64
    /// Every trace entry, when `recordsTrace` was on; otherwise empty.
    public var trace: [TraceEvent]
    /// Actor labels by ordinal (0 is nonisolated code).
    public var actorLabels: ActorLabels
    /// Work left when the run ended: ready jobs and pending timers that never ran.
    public var leftoverReadyJobs: Int
    /// Timers still pending when the run ended.
    public var leftoverTimers: Int
    /// Jobs that tried to leave for the global executor and were kept inside (`Task {}`, detached).
    public var globalJobsCaptured: UInt64
    /// For `.replay`: the first choice point whose logged decision was out of range (nil: none).
    public var replayDivergence: ReplayDivergence? = nil
    /// Jobs run per task, by order of first sight (only when the configuration measured them).
    var taskSteps: [Int] = []
    /// Deep invariant checks the scheduler made (0 unless `checksInternalInvariants`).
    package var invariantChecks: UInt64 = 0
}
