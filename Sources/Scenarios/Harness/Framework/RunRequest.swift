import Sim

/// Everything that decides one scenario run (plus what the report should carry).
public struct RunRequest: Sendable, Hashable {
    /// The scenario to run.
    public var scenario: String
    /// The seed.
    public var seed: UInt64
    /// The strategy asked for (a portfolio resolves per seed).
    public var strategy: SchedulingStrategy
    /// Parameters given explicitly; the rest take their defaults.
    public var parameters: [String: Int]
    /// The Domain variant, nil for the careful design.
    public var variant: String?
    /// Latency thresholds the run must meet.
    public var thresholds: [Threshold]
    /// Whether to keep the full trace (for `--trace` and determinism diagnosis).
    public var recordsTrace: Bool
    /// The commit to record in the report's build fingerprint.
    public var gitCommit: String?
    /// The seed's swarm of fault kinds (nil: the scenario's own faults).
    public var swarm: SwarmConfiguration?
    /// The seed's drawn world (nil: the defaults and explicit parameters only).
    public var world: World?
    /// Steps, virtual time, strictness and the stuck-job watchdog of the run.
    public var limits = RunLimits.standard
    /// When set, the run replays this decisions log (`.replay(decisions:)`) instead of choosing by
    /// `strategy`, which the report still names: how shrunk failure artifacts reproduce.
    public var decisions: [UInt32]?
    /// Whether the run records how many alternatives each choice point had (`Execution.choiceCounts`: explore).
    public var recordsChoices = false
    /// Timers due within this many virtual nanoseconds of each other are concurrent and the
    /// strategy orders them (`SimulationConfiguration.timingWindowNanoseconds`); nil takes the
    /// backend's `BackendFaults.concurrencyWindow`, 0 orders strictly by deadline.
    public var timingWindowNanoseconds: UInt64?
    /// Test hooks for the run's backends: planted defects, a document-parking threshold (tests of
    /// the harness only; empty in real runs).
    package var testHooks = BackendTestHooks()

    /// The window a run uses when the request names none: 10 ms, the simulated backend's
    /// concurrency window (a sixth of a client hop's median latency; docs/domain.md).
    package static let defaultTimingWindowNanoseconds: UInt64 = 10_000_000

    /// The window this request runs with.
    package var effectiveTimingWindowNanoseconds: UInt64 { timingWindowNanoseconds ?? Self.defaultTimingWindowNanoseconds }

    /// A request for `scenario` and `seed`; everything else defaults to a plain random run.
    public init(
        scenario: String, seed: UInt64, strategy: SchedulingStrategy = .random, parameters: [String: Int] = [:],
        variant: String? = nil, thresholds: [Threshold] = [], recordsTrace: Bool = false, gitCommit: String? = nil,
        swarm: SwarmConfiguration? = nil, decisions: [UInt32]? = nil, timingWindowNanoseconds: UInt64? = nil
    ) {
        self.timingWindowNanoseconds = timingWindowNanoseconds
        self.swarm = swarm
        self.decisions = decisions
        self.scenario = scenario
        self.seed = seed
        self.strategy = strategy
        self.parameters = parameters
        self.variant = variant
        self.thresholds = thresholds
        self.recordsTrace = recordsTrace
        self.gitCommit = gitCommit
    }

    /// The strategy the kernel runs: the replayed log when `decisions` is set.
    package var effectiveStrategy: SchedulingStrategy { decisions.map { .replay(decisions: $0) } ?? strategy }

    /// The request that runs `identity` again: its strategy parsed (`malformedStrategy` when it
    /// is not one `--strategy` takes), its parameters and swarm as recorded.
    package init(
        replaying identity: RunIdentity, thresholds: [Threshold] = [], gitCommit: String? = nil, decisions: [UInt32]? = nil,
        timingWindowNanoseconds: UInt64? = nil
    ) throws(ScenarioError) {
        guard let strategy = SchedulingStrategy(parsing: identity.strategy) else { throw .malformedStrategy(identity.strategy) }
        self.init(
            scenario: identity.scenario, seed: identity.seed, strategy: strategy, parameters: identity.parameters,
            variant: identity.variant, thresholds: thresholds, gitCommit: gitCommit, swarm: identity.swarm, decisions: decisions,
            timingWindowNanoseconds: timingWindowNanoseconds)
        self.world = identity.world
        self.limits = identity.limits ?? .standard
    }

    /// What this request asks for as a run identity: the requested strategy, the explicit parameters.
    package var identity: RunIdentity {
        RunIdentity(scenario: scenario, seed: seed, strategy: strategy.description, variant: variant, parameters: parameters, swarm: swarm, world: world,
                    limits: limits == .standard ? nil : limits)
    }

    /// Deterministic from scenario, seed, strategy and variant: `auction-race-s42-pct-3-careful`
    /// (a prepared run adds a hash of what differs from the defaults: `PreparedRun.runId`).
    package var runId: String { identity.runId }

    /// The words that ask for this request again: its explicit parameters, timing window and
    /// thresholds, the strategy asked for (not the one a portfolio picks per seed).
    package var commandLine: RunCommandLine {
        var line = identity.commandLine(explicit: nil, timingWindowNanoseconds: timingWindowNanoseconds)
        line.thresholds = thresholds.map(\.expression)
        line.limits = limits
        return line
    }
}
