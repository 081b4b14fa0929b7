#if canImport(Glibc)
import Glibc
#endif

/// Everything that decides a run: with the same configuration and binary, the same trace.
public struct SimulationConfiguration: Sendable, Hashable {
    /// The seed of every random stream (scheduler choices included).
    public var seed: UInt64
    /// How the next job is chosen among the ready ones.
    public var strategy: SchedulingStrategy
    /// Bounds that end runaway runs.
    public var limits: SimulationLimits
    /// Calendar time at virtual time zero, in nanoseconds since the Unix epoch
    /// (default 2026-01-12T00:00:00Z, the week of the seeds' examples).
    public var epochUnixNanoseconds: Int64
    /// When true, a job from a foreign thread or a real-time sleep fails the run (MainActor use
    /// always does).
    public var strict: Bool
    /// When true, every trace event is kept (for JSON Lines output and divergence reports);
    /// otherwise only the rolling hash is.
    public var recordsTrace: Bool
    /// Timers due within this many virtual nanoseconds of the earliest pending one are treated as
    /// concurrent: the strategy chooses which fires first (a logged decision that replay and
    /// shrinking cover), and the others follow late by less than the window. 0 fires strictly
    /// by deadline. Network deliveries, trigger invocations and wake-ups drawn from latency
    /// models rarely coincide to the nanosecond, so without a window their order is decided by
    /// the latency draws and not by the strategy.
    public var timingWindowNanoseconds: UInt64
    /// When false, choice points are counted (`SimulationResult.choicePoints`) but not logged, so
    /// memory stays flat however long the run (load runs: one decision of 4 bytes per step would
    /// be hundreds of MB); such a run is reproduced from its seed, not replayed from a log.
    public var recordsDecisions = true
    /// When true, the result also lists how many alternatives each choice point had
    /// (`SimulationResult.choiceCounts`): what an exhaustive search (`BoundedExplorer`) branches on.
    public var recordsChoices = false
    /// Wall time one job may run before a watchdog ends the run as `.stuckJob`, naming the job (a
    /// loop without an `await` never yields the thread; nothing else can stop it); the run then
    /// runs on a thread of its own (`WatchedRun`), abandoned when stuck. nil: no watchdog.
    public var stuckJobLimit: Duration?
    /// Whether the scheduler checks its whole structure after every mutation (`checkInvariants`):
    /// O(ready + timers) every 64th mutation. On when the process starts with
    /// `SIM_INTERNAL_CHECKS=1` in its environment (`.ci/run` runs the kernel's tests and a slice of
    /// every scenario's sweep that way), off otherwise.
    public var checksInternalInvariants = SimulationConfiguration.internalChecksFromEnvironment
    /// `SIM_INTERNAL_CHECKS=1` in the environment, read once per process.
    public static let internalChecksFromEnvironment: Bool = {
        guard let value = getenv("SIM_INTERNAL_CHECKS") else { return false }
        return String(cString: value) == "1"
    }()
    /// URW's per-task step estimates (set by `Simulation.run` from its measuring run).
    var taskStepEstimates: [Int] = []
    /// Whether the run counts jobs per task (the measuring run of `.urw`).
    var measuresTaskSteps = false

    /// A run of `seed` under `strategy`; the rest defaults to strict mode and the standard limits.
    public init(
        seed: UInt64,
        strategy: SchedulingStrategy = .random,
        limits: SimulationLimits = SimulationLimits(),
        epochUnixNanoseconds: Int64 = 1_768_176_000 * 1_000_000_000,
        strict: Bool = true,
        recordsTrace: Bool = false,
        timingWindowNanoseconds: UInt64 = 0
    ) {
        self.timingWindowNanoseconds = timingWindowNanoseconds
        self.seed = seed
        self.strategy = strategy
        self.limits = limits
        self.epochUnixNanoseconds = epochUnixNanoseconds
        self.strict = strict
        self.recordsTrace = recordsTrace
    }
}
