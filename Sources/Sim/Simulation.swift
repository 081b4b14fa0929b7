/// Runs async Swift code deterministically: one thread, a seeded choice among ready jobs,
/// virtual time that jumps to the next timer. Same configuration and binary ⇒ same trace hash.
///
/// ```swift
/// let result = Simulation.run(SimulationConfiguration(seed: 42, strategy: .pct(depth: 3, horizon: 500))) {
///     let auction = Auction()                      // actor Auction: SimActor
///     await withTaskGroup(of: Void.self) { group in
///         for bidder in 0..<50 { group.addTask { _ = await auction.bid(bidder) } }
///     }
/// }
/// print(result.outcome, result.traceHash)
/// ```
public enum Simulation {
    /// Runs `body` as the root task of a new simulation on the calling thread and returns when
    /// the run ends (root finished, deadlock, limit or escape). The calling thread must not be
    /// running a simulation already.
    public static func run<Output: Sendable>(
        _ configuration: SimulationConfiguration,
        _ body: sending @escaping () async throws -> Output
    ) -> SimulationResult<Output> {
        // Never a silent real clock: without the interposer, a run would read real time.
        if let problem = virtualTimeProblem { fatalError(problem) }
        RuntimeHooks.install()
        precondition(SimulationContext.current == nil, "Simulation.run called from inside a running simulation")
        var resolved = configuration
        resolved.strategy = configuration.strategy.resolved(forSeed: configuration.seed)
        if case .urw = resolved.strategy {
            // URW weighs each task by its remaining steps, estimated from a run without preemption.
            let box = BodyBox(body)
            var measuring = resolved
            measuring.strategy = .nonpreemptive
            measuring.recordsTrace = false
            measuring.measuresTaskSteps = true
            resolved.taskStepEstimates = runResolved(measuring) { try await box.body() }.taskSteps
            return runResolved(resolved) { try await box.body() }
        }
        guard case .pct(let depth, nil) = resolved.strategy, depth > 1 else {
            return runResolved(resolved, body)
        }
        // PCT's horizon k is the number of choice points of this seed's run without preemption
        // (shuttle measures it the same way). The two runs are sequential on this thread, and a
        // run's leftover tasks never run again once it ends, so the body is never used twice at once.
        let box = BodyBox(body)
        var measuring = resolved
        measuring.strategy = .nonpreemptive
        measuring.recordsTrace = false
        let measured = runResolved(measuring) { try await box.body() }
        resolved.strategy = .pct(depth: depth, horizon: max(1, measured.decisions.count))
        return runResolved(resolved) { try await box.body() }
    }

    /// One run: the root task starts on the calling thread (so it inherits the caller's task-local
    /// values), and the run loop runs there too, or, when a stuck-job limit is set, on a thread of
    /// its own (`WatchedRun`), so a job that never returns fails this run and not the process.
    private static func runResolved<Output: Sendable>(
        _ configuration: SimulationConfiguration,
        _ body: sending @escaping () async throws -> Output
    ) -> SimulationResult<Output> {
        let scheduler = Scheduler(configuration: configuration)
        SimulationContext.set(scheduler)
        let box = OutputBox<Output>()
        let root = Task(executorPreference: scheduler.taskExecutor) {
            scheduler.nameRunningTask("root")
            do {
                box.value = try await body()
                scheduler.rootDidFinish(error: nil)
            } catch {
                scheduler.rootDidFinish(error: error)
            }
        }
        _ = root
        guard let limit = configuration.stuckJobLimit else { return finish(scheduler, configuration, box) }
        SimulationContext.set(nil)
        let watchdog = Watchdog(limit: limit) { [unowned scheduler] ordinal in scheduler.executorLabels[Int(ordinal)] }
        scheduler.watchdog = watchdog
        let unchecked = UncheckedRun(scheduler: scheduler, box: box)
        let ran = WatchedRun<SimulationResult<Output>>.run(watchdog) {
            unchecked.scheduler.adoptCurrentThread()
            SimulationContext.set(unchecked.scheduler)
            defer { watchdog.stop() }
            return finish(unchecked.scheduler, configuration, unchecked.box)
        }
        switch ran {
        case .success(let result): return result
        case .failure(let stuck): return abandoned(scheduler, configuration, stuck)
        }
    }

    /// Runs the loop to its outcome on this thread and collects the result.
    private static func finish<Output: Sendable>(
        _ scheduler: Scheduler, _ configuration: SimulationConfiguration, _ box: OutputBox<Output>
    ) -> SimulationResult<Output> {
        let outcome = scheduler.runLoop()
        SimulationContext.set(nil)
        ForeignJobRouter.release(scheduler)
        let pending = scheduler.pendingWork
        defer { scheduler.releaseBuffers() }
        // After the outcome, hash and decisions are final and outside the simulation: what the
        // actions release can no longer change the run (its leftover tasks never run again).
        scheduler.runEndActions()
        var result = SimulationResult(
            configuration: configuration,
            outcome: outcome,
            output: box.value,
            steps: scheduler.steps,
            virtualNanoseconds: scheduler.now,
            traceHash: scheduler.hash,
            decisions: scheduler.decisions,
            timingDecisions: scheduler.timingDecisions,
            trace: scheduler.events,
            actorLabels: scheduler.executorLabels,
            leftoverReadyJobs: pending.readyJobs,
            leftoverTimers: pending.timers,
            globalJobsCaptured: scheduler.globalJobsCaptured,
            replayDivergence: scheduler.replayDivergence)
        result.taskSteps = scheduler.urw?.executed ?? []
        result.choicePoints = scheduler.choicePoints
        result.choiceCounts = scheduler.choiceCounts
        result.invariantChecks = scheduler.invariantChecks
        return result
    }

    /// The result of a run whose job the watchdog found stuck: what the scheduler had when the job
    /// started (its steps, time, hash and decisions do not change while one job runs, so reading
    /// them from here races with nothing the scheduler writes); no trace or labels, which the job
    /// itself may still be appending to.
    private static func abandoned<Output: Sendable>(
        _ scheduler: Scheduler, _ configuration: SimulationConfiguration, _ stuck: StuckJob
    ) -> SimulationResult<Output> {
        SimulationResult(
            configuration: configuration, outcome: .stuckJob(stuck.line), output: nil, steps: scheduler.steps,
            virtualNanoseconds: scheduler.now, traceHash: scheduler.hash, decisions: scheduler.decisions,
            timingDecisions: scheduler.timingDecisions, trace: [], actorLabels: ActorLabels(first: "nonisolated"), leftoverReadyJobs: 0, leftoverTimers: 0,
            globalJobsCaptured: 0)
    }

    /// The scheduler and output box a watched run hands to its thread (confined to it from then on).
    private struct UncheckedRun<Output>: @unchecked Sendable {
        let scheduler: Scheduler
        let box: OutputBox<Output>
    }

    /// Why a simulation would refuse to start in this process (virtual time is not in effect:
    /// the executable or test target lacks `-Xlinker --export-dynamic`), or nil when runs can start.
    /// Measured once per process. `Simulation.run` traps with this message.
    public static var virtualTimeProblem: String? {
        #if canImport(Glibc)
        ClockInterposer.problem
        #else
        nil
        #endif
    }

    /// True when called from code running inside a simulation.
    public static var isActive: Bool { SimulationContext.current != nil }

    /// The running simulation's task executor (nil outside a simulation). An unstructured task
    /// started with `Task(executorPreference: Simulation.taskExecutor) { … }` runs its nonisolated
    /// code as the root task does: a call between nonisolated functions continues inline, as on
    /// the real runtime, where a plain `Task {}` inside a simulation pays a scheduler step for each.
    public static var taskExecutor: (any TaskExecutor)? { SimulationContext.current?.taskExecutor }

    /// The seed of the running simulation.
    public static var seed: UInt64 { current().configuration.seed }

    /// Virtual nanoseconds since the start of the running simulation.
    public static var nowNanoseconds: UInt64 { current().now }

    /// The random stream `name` of the running simulation (independent of every other name).
    public static func random(_ name: String) -> SimRandom { current().streams.stream(named: name) }

    /// The random streams of the running simulation.
    public static var streams: RandomStreams { current().streams }

    /// Records `event` in the trace, with virtual time and the running actor.
    public static func record(_ event: String) { current().record(event) }

    /// Starts an unstructured task named `name`; if the run deadlocks while it has not
    /// finished, the deadlock report names it. The caller keeps running until its next
    /// suspension; use `spawn(_:schedulingPoint:_:)` to let the new task run first.
    @discardableResult
    public static func spawn(
        _ name: String, _ body: sending @escaping () async -> Void
    ) -> Task<Void, Never> {
        let scheduler = current()
        let id = scheduler.namedTaskStarted(name)
        return Task(executorPreference: scheduler.taskExecutor) {
            scheduler.nameRunningTask(name)
            await $currentTaskName.withValue(name) { await body() }
            scheduler.namedTaskFinished(id)
        }
    }

    /// The name of the running task when `spawn` started it (or a task it started), for
    /// messages that say where something happened.
    @TaskLocal public static var currentTaskName: String?

    /// Starts a named task as `spawn(_:_:)` does; with `schedulingPoint`, the caller then yields
    /// (`point()`), so the strategy chooses whether the new task or the caller goes first.
    @discardableResult
    public static func spawn(
        _ name: String, schedulingPoint: Bool, _ body: sending @escaping () async -> Void
    ) async -> Task<Void, Never> {
        let task = spawn(name, body)
        if schedulingPoint { await point() }
        return task
    }

    /// An explicit scheduling point: the calling task yields, and the strategy chooses what runs
    /// next among everything ready (a logged decision, so replay and shrinking cover it).
    ///
    /// Needed because the optimizer merges consecutive awaits on one actor into one job when
    /// nothing between them is observable (in release builds, and in some shapes at -Onone), so
    /// `let v = await counter.get(); await counter.set(v + 1)` may offer no point between the
    /// read and the write. Put `await Simulation.point()` between them to make the race explorable.
    /// Outside a simulation it is `Task.yield()`.
    public static func point() async {
        await Task.yield()
    }

    /// Registers `action` to run once when the running simulation ends: after its outcome, trace
    /// hash and decisions are final, on the same thread but outside the simulation (no Simulation
    /// API), before `Simulation.run` returns; actions run in registration order, each run (PCT's
    /// measuring run too) its own. For releasing what the run built: a task still suspended when
    /// the run ends never runs again, so a reference cycle it would have broken (an app that
    /// captured itself in a handler it registered) stays unless an end action breaks it.
    public static func atEnd(_ action: @escaping @Sendable () -> Void) { current().atEnd(action) }

    /// Runs `body` as a named child task body: the deadlock report names it while it is unfinished.
    public static func named<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
        let scheduler = current()
        let id = scheduler.namedTaskStarted(name)
        scheduler.nameRunningTask(name)
        defer { scheduler.namedTaskFinished(id) }
        return try await body()
    }

    static func current() -> Scheduler {
        guard let scheduler = SimulationContext.current else {
            preconditionFailure("Simulation API used outside a running simulation")
        }
        return scheduler
    }

    private final class OutputBox<Value>: @unchecked Sendable {
        @exclusivity(unchecked) var value: Value?
    }

    /// Holds a root body that two sequential runs call (PCT's measuring run, then the real one).
    private final class BodyBox<Output>: @unchecked Sendable {
        let body: () async throws -> Output
        init(_ body: @escaping () async throws -> Output) { self.body = body }
    }
}
