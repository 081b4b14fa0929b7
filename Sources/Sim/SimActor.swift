/// An actor that runs on the simulator: conform and declare
/// `nonisolated let simExecutor = SimExecutor("name")` — every hop to it becomes a scheduling point.
///
/// For actors that exist only inside simulations (test doubles, workloads): creating one outside
/// `Simulation.run` traps. Actors of production code use `RehearsableActor` instead, which runs
/// on the global pool outside a simulation.
///
/// ```swift
/// actor Auction: SimActor {
///     nonisolated let simExecutor = SimExecutor("auction")
///     var highest = 0
///     func bid(_ amount: Int) -> Bool { … }
/// }
/// ```
public protocol SimActor: Actor {
    /// This actor's own executor; fixed for its lifetime.
    nonisolated var simExecutor: SimExecutor { get }
}

extension SimActor {
    /// The simulation's executor, as the runtime needs it.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        simExecutor.asUnownedSerialExecutor()
    }
}
