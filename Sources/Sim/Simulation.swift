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
        RuntimeHooks.install()
        precondition(SimulationContext.current == nil, "Simulation.run called from inside a running simulation")
        let scheduler = Scheduler(configuration: configuration)
        SimulationContext.set(scheduler)
        let box = OutputBox<Output>()
        let root = Task(executorPreference: scheduler.taskExecutor) {
            do {
                box.value = try await body()
                scheduler.rootDidFinish(error: nil)
            } catch {
                scheduler.rootDidFinish(error: error)
            }
        }
        _ = root
        let outcome = scheduler.runLoop()
        SimulationContext.set(nil)
        ForeignJobRouter.release(scheduler)
        let pending = scheduler.pendingWork
        defer { scheduler.releaseBuffers() }
        return SimulationResult(
            configuration: configuration,
            outcome: outcome,
            output: box.value,
            steps: scheduler.steps,
            virtualNanoseconds: scheduler.now,
            traceHash: scheduler.hash,
            decisions: scheduler.decisions,
            trace: scheduler.events,
            actorLabels: scheduler.executorLabels,
            leftoverReadyJobs: pending.readyJobs,
            leftoverTimers: pending.timers,
            globalJobsCaptured: scheduler.globalJobsCaptured)
    }

    /// True when called from code running inside a simulation.
    public static var isActive: Bool { SimulationContext.current != nil }

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
    /// finished, the deadlock report names it.
    @discardableResult
    public static func spawn(
        _ name: String, _ body: sending @escaping () async -> Void
    ) -> Task<Void, Never> {
        let scheduler = current()
        let id = scheduler.namedTaskStarted(name)
        return Task(executorPreference: scheduler.taskExecutor) {
            await body()
            scheduler.namedTaskFinished(id)
        }
    }

    /// Runs `body` as a named child task body: the deadlock report names it while it is unfinished.
    public static func named<T>(_ name: String, _ body: () async throws -> T) async rethrows -> T {
        let scheduler = current()
        let id = scheduler.namedTaskStarted(name)
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
        var value: Value?
    }
}
