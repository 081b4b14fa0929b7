
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
        package let iterate: @Sendable (_ index: Int, _ user: Int, _ record: LoadRecorder) async -> Void
        /// The checks its iterations and `settle` judge (nil: none).
        package var checks: LoadCheckLog?
        /// Judges the settled state into `checks` once the load ended.
        package var settle: (@Sendable () async -> Void)?

        /// A workload whose iterations run `iterate`, judging `checks` (during the load, and in `settle` after it).
        package init(
            checks: LoadCheckLog? = nil, settle: (@Sendable () async -> Void)? = nil,
            iterate: @escaping @Sendable (_ index: Int, _ user: Int, _ record: LoadRecorder) async -> Void
        ) {
            self.checks = checks
            self.settle = settle
            self.iterate = iterate
        }
    }

    /// What the runner asks a profile to build its world on.
    package struct Environment: Sendable {
        /// The run's seed.
        package let seed: UInt64
        /// The scenario's variant name, nil for the careful design (validated by the caller).
        package let variant: String?
        /// Whether the run is on the real runtime (wall clock) or inside a simulation.
        package let clock: ClockKind
        /// The calendar instant of the run's start.
        package let epochUnixNanoseconds: Int64
        /// The real server the run drives instead of the simulated backend (wall clock only).
        package var server: (any LoadServer)? = nil
    }

    /// A set-up world: the workload, the clock it runs on, and what its backend observed.
    package struct World: Sendable {
        /// The iterations.
        package let workload: Workload
        /// The world's clock (the driver times and paces iterations on it).
        package let clock: RunClock
        /// The executor iterations and virtual users prefer (the simulator's task executor, or nil).
        package let taskExecutor: (any TaskExecutor)?
        /// What the world's backends observed, read when the run ends.
        package let participants: [any RunParticipant]

        /// A world of `workload` on `clock`.
        package init(workload: Workload, clock: RunClock, taskExecutor: (any TaskExecutor)?, participants: [any RunParticipant]) {
            self.workload = workload
            self.clock = clock
            self.taskExecutor = taskExecutor
            self.participants = participants
        }
    }

    /// The scenario this profile stands in for.
    package let scenario: String
    /// One line: which operations, on what.
    package let summary: String
    /// The operation names it records (for thresholds and docs).
    package let operations: [String]
    /// Users signed up for the run (iterations are spread over them).
    package let users: Int
    /// The simulator's timing window for a virtual run (the backend's concurrency window).
    package let timingWindowNanoseconds: UInt64
    /// Whether the profile can run against a real server (`rehearse load --backend`).
    package var runsOnRealServer = false
    /// Builds the world (backend, app, users) and returns it (not timed).
    package let setUp: @Sendable (_ environment: Environment) async -> World

    /// A profile; `setUp` builds its world on the environment the runner gives.
    package init(
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
    package static var all: [LoadProfile] { ScenarioRegistry.all.compactMap(\.loadProfile) }

    /// The profile of `scenario`, if it has one.
    package static func named(_ scenario: String) -> LoadProfile? { all.first { $0.scenario == scenario } }

    /// Times one operation from `intendedStart` (the arrival's scheduled instant in the open model)
    /// and reports it, with whether it failed.
    package final class LoadRecorder: Sendable {
        let metrics: LoadMetrics
        /// The iteration's intended start, in run-relative nanoseconds.
        package let intendedStartNanoseconds: UInt64
        /// Run-relative nanoseconds now (on the run's clock).
        package let now: @Sendable () -> UInt64

        init(intendedStartNanoseconds: UInt64, now: @escaping @Sendable () -> UInt64, metrics: LoadMetrics) {
            self.intendedStartNanoseconds = intendedStartNanoseconds
            self.now = now
            self.metrics = metrics
        }

        /// Records `operation` as started at `start` (default: the iteration's intended start).
        package func record(_ operation: String, start: UInt64? = nil, failed: Bool = false) {
            metrics.record(operation, intended: start ?? intendedStartNanoseconds, end: now(), failed: failed)
        }
    }
}
