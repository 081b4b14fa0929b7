
/// What `rehearse load` runs for one scenario: set-up on a world the runner asked for (the
/// backend, on the real runtime or on the simulator), then one *iteration* (one arrival in the open
/// model, one loop turn of a virtual user in the closed model) calling the scenario's own client
/// code (the same functions, with the same retry policy, as the simulated scenario).
///
/// Nothing here reads the wall clock: waits go through the world's `RunClock`.
public struct LoadProfile: Sendable {
    /// The operations of one set-up app: `iterate(index, user, record)` runs iteration `index`
    /// as pool user `user` and reports each timed operation through `record`.
    public struct Workload: Sendable {
        /// Runs iteration `index` as pool user `user`, reporting each timed operation.
        public let iterate: @Sendable (_ index: Int, _ user: Int, _ record: LoadRecorder) async -> Void

        /// A workload whose iterations run `iterate`.
        public init(iterate: @escaping @Sendable (_ index: Int, _ user: Int, _ record: LoadRecorder) async -> Void) {
            self.iterate = iterate
        }
    }

    /// What the runner asks a profile to build its world on.
    public struct Environment: Sendable {
        /// The run's seed.
        public let seed: UInt64
        /// The scenario's variant name, nil for the careful design (validated by the caller).
        public let variant: String?
        /// Whether the run is on the real runtime (wall clock) or inside a simulation.
        public let clock: ClockKind
        /// The calendar instant of the run's start.
        public let epochUnixNanoseconds: Int64
    }

    /// A set-up world: the workload, the clock it runs on, and what its backend observed.
    public struct World: Sendable {
        /// The iterations.
        public let workload: Workload
        /// The world's clock (the driver times and paces iterations on it).
        public let clock: RunClock
        /// The executor iterations and virtual users prefer (the simulator's task executor, or nil).
        public let taskExecutor: (any TaskExecutor)?
        /// What the world's backends observed, read when the run ends.
        public let participants: [any RunParticipant]

        /// A world of `workload` on `clock`.
        public init(workload: Workload, clock: RunClock, taskExecutor: (any TaskExecutor)?, participants: [any RunParticipant]) {
            self.workload = workload
            self.clock = clock
            self.taskExecutor = taskExecutor
            self.participants = participants
        }
    }

    /// The scenario this profile stands in for.
    public let scenario: String
    /// One line: which operations, on what.
    public let summary: String
    /// The operation names it records (for thresholds and docs).
    public let operations: [String]
    /// Users signed up for the run (iterations are spread over them).
    public let users: Int
    /// The simulator's timing window for a virtual run (the backend's concurrency window).
    public let timingWindowNanoseconds: UInt64
    /// Builds the world (backend, app, users) and returns it (not timed).
    public let setUp: @Sendable (_ environment: Environment) async -> World

    /// A profile; `setUp` builds its world on the environment the runner gives.
    public init(
        scenario: String, summary: String, operations: [String], users: Int, timingWindowNanoseconds: UInt64,
        setUp: @escaping @Sendable (_ environment: Environment) async -> World
    ) {
        self.scenario = scenario
        self.summary = summary
        self.operations = operations
        self.users = users
        self.timingWindowNanoseconds = timingWindowNanoseconds
        self.setUp = setUp
    }

    /// Every registered scenario's profile, in registry order (a scenario declares its own,
    /// `Scenario.loadProfile`, so adding one touches no list here).
    public static var all: [LoadProfile] { ScenarioRegistry.all.compactMap(\.loadProfile) }

    /// The profile of `scenario`, if it has one.
    public static func named(_ scenario: String) -> LoadProfile? { all.first { $0.scenario == scenario } }

    /// Times one operation from `intendedStart` (the arrival's scheduled instant in the open model)
    /// and reports it, with whether it failed.
    public final class LoadRecorder: Sendable {
        let metrics: LoadMetrics
        /// The iteration's intended start, in run-relative nanoseconds.
        public let intendedStartNanoseconds: UInt64
        /// Run-relative nanoseconds now (on the run's clock).
        public let now: @Sendable () -> UInt64

        init(intendedStartNanoseconds: UInt64, now: @escaping @Sendable () -> UInt64, metrics: LoadMetrics) {
            self.intendedStartNanoseconds = intendedStartNanoseconds
            self.now = now
            self.metrics = metrics
        }

        /// Records `operation` as started at `start` (default: the iteration's intended start).
        public func record(_ operation: String, start: UInt64? = nil, failed: Bool = false) {
            metrics.record(operation, intended: start ?? intendedStartNanoseconds, end: now(), failed: failed)
        }
    }
}
