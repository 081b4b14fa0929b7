/// An actor that runs on the simulator inside a simulation and on the Swift runtime's global
/// pool everywhere else: production code can use it (it never traps outside a simulation,
/// unlike `SimActor`). Store an executor made by `RehearsableExecutor.make(_:)`:
///
/// ```swift
/// actor Account: RehearsableActor {
///     nonisolated let executor = RehearsableExecutor.make("account")
///     var balance = 100
/// }
/// ```
///
/// The choice is made when the actor is created: an actor created inside `Simulation.run` is
/// scheduled by the simulation (every hop to it is a scheduling point); one created outside
/// runs its jobs in order on the global concurrent executor. (The domain core's `DomainActor`
/// and `ActorExecutorSource` are the same pattern with the source injected.)
public protocol RehearsableActor: Actor {
    /// This actor's executor; fixed for its lifetime.
    nonisolated var executor: any SerialExecutor { get }
}

extension RehearsableActor {
    /// The stored executor, as the runtime needs it.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }
}
