/// Hands each domain actor its own serial executor.
///
/// A simulator supplies one executor object per actor so that every hop between actors is an
/// enqueue, hence a scheduling point it can choose at; the real runtime supplies
/// `ConcurrentPoolExecutorSource`. Domain code never cares which.
public protocol ActorExecutorSource: Sendable {
    /// A new serial executor for one actor; `label` names the actor in traces (e.g. `honor/h1`).
    func makeExecutor(label: String) -> any SerialExecutor
}

/// An actor of the domain core whose executor is injected; conforming is the one-line opt-in.
///
/// Conformers store `nonisolated let executor: any SerialExecutor` (from
/// `DomainEnvironment.makeExecutor(label:)`); the extension turns it into `unownedExecutor`.
public protocol DomainActor: Actor {
    /// The executor this actor's jobs run on; fixed for the actor's lifetime.
    nonisolated var executor: any SerialExecutor { get }
}

extension DomainActor {
    /// The actor's injected executor, as the runtime asks for it.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }
}
