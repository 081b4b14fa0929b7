/// The serial executor of one simulated actor. Each actor owns its own, so every hop between
/// actors is an enqueue into the scheduler's ready set, hence a point where the strategy chooses.
///
/// Create it inside a running simulation (it binds to the simulation on the current thread).
public final class SimExecutor: SerialExecutor, @unchecked Sendable {
    let scheduler: Scheduler
    /// Creation ordinal within the simulation (1, 2, …); names the actor in the trace.
    public let ordinal: UInt32
    /// The actor's name in traces and reports.
    public var label: String { scheduler.executorLabels[Int(ordinal)] }

    /// A new executor for one actor, labelled `label` in traces.
    public init(_ label: String = "actor") {
        guard let scheduler = SimulationContext.current else {
            preconditionFailure("SimExecutor(\"\(label)\") was created outside a running simulation: create simulated actors inside Simulation.run")
        }
        self.scheduler = scheduler
        self.ordinal = scheduler.registerExecutor(label: label)
    }

    /// The executor of a parked actor, again (see `park()`): the same ordinal and name, so the
    /// scheduler and the trace see the same actor. `token` is what `park()` returned.
    public init(reviving token: UInt64) {
        guard let scheduler = SimulationContext.current else {
            preconditionFailure("SimExecutor(reviving:) outside a running simulation")
        }
        precondition(token > 0 && token <= UInt64(UInt32.max), "not a parking token: \(token)")
        self.scheduler = scheduler
        self.ordinal = UInt32(token)
        scheduler.reviveExecutor(ordinal)
    }

    /// Marks this executor's actor parked and returns the token that revives it
    /// (`init(reviving:)`). The caller keeps the token instead of the executor (~50 bytes less for
    /// each of the hundreds of thousands of documents a load test parks) and drops every
    /// reference to this object; no job of it may be queued.
    public func park() -> UInt64 {
        precondition(scheduler.isOnSimulationThread, "SimExecutor.park() off the simulation's thread")
        scheduler.parkExecutor(ordinal)
        return UInt64(ordinal)
    }

    /// Puts the actor's job in the simulation's ready set (the strategy decides when it runs).
    public func enqueue(_ job: consuming ExecutorJob) {
        scheduler.enqueue(UnownedJob(job), on: self, origin: .actor)
    }

    /// This executor as the runtime sees it.
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Traps unless this actor's job is the one running.
    public func checkIsolated() {
        precondition(scheduler.isRunning(self), "not isolated to simulated actor \(label)")
    }
}
