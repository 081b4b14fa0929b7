/// Hands each domain actor its own serial executor.
///
/// A simulator supplies one executor object per actor so that every hop between actors is an
/// enqueue, hence a scheduling point it can choose at; the real runtime supplies
/// `ConcurrentPoolExecutorSource`. Domain code never cares which.
public protocol ActorExecutorSource: Sendable {
    /// A new serial executor for one actor; `label` names the actor in traces (e.g. `honor/h1`).
    func makeExecutor(label: String) -> any SerialExecutor

    /// A number that stands for `executor` while its actor is parked (the caller then drops the
    /// executor and revives it with `reviveExecutor(_:)`), or nil to keep the executor itself.
    func parkingToken(for executor: any SerialExecutor) -> UInt64?

    /// The executor `token` stood for, the same actor to the scheduler and in traces.
    func reviveExecutor(_ token: UInt64) -> any SerialExecutor

    /// The executor background tasks prefer (`Task(executorPreference:)`), or nil for none.
    var taskExecutor: (any TaskExecutor)? { get }
}

extension ActorExecutorSource {
    /// No preference: background tasks run where `Task {}` puts them (the default).
    public var taskExecutor: (any TaskExecutor)? { nil }

    /// Executors are kept while their actors are parked (the default).
    public func parkingToken(for executor: any SerialExecutor) -> UInt64? { nil }

    /// Never called when `parkingToken(for:)` returns nil.
    public func reviveExecutor(_ token: UInt64) -> any SerialExecutor {
        preconditionFailure("\(Self.self) gave no parking token, so it has nothing to revive (token \(token))")
    }
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
