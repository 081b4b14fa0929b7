import Harness
import Sim
import SimulatedFirebase

/// Builds the domain core's `DomainEnvironment` from the running simulation: its virtual clock
/// (with the run's calendar epoch), one `SimExecutor` per domain actor, and its seeded streams.
public enum SimulatedEnvironment {
    /// The environment for the simulation running on this thread (call inside `Simulation.run`).
    public static func current() -> DomainEnvironment {
        let clock = SimClock()
        return current(clock: domainClock(epochUnixNanoseconds: clock.unixNanoseconds(at: clock.now)))
    }

    /// The simulation's virtual clock as the domain's clock, zero now, standing for calendar time
    /// `epochUnixNanoseconds`; it sleeps through `SimClock.sleep(positive:)` directly (the same
    /// timers as `DomainClock(SimClock(), …)`, with fewer executor switches per sleep).
    public static func domainClock(epochUnixNanoseconds: Int64) -> DomainClock {
        let start = SimClock.elapsed
        return DomainClock(
            epochUnixNanoseconds: epochUnixNanoseconds, elapsed: { SimClock.elapsed - start },
            sleep: { duration in try await SimClock.sleep(positive: duration) })
    }

    /// The same, on `clock` (a scenario that starts its calendar at a chosen instant).
    public static func current(clock: DomainClock) -> DomainEnvironment {
        DomainEnvironment(
            clock: clock,
            executors: SimExecutorSource(),
            random: SimRandomSource(streams: Simulation.streams),
            coldStorage: SpilledDocuments())
    }
}

/// Gives each domain actor its own simulator executor, so every hop is a scheduling point.
public struct SimExecutorSource: ActorExecutorSource {
    /// A source of simulator executors.
    public init() {}
    /// A new `SimExecutor` labelled `label` (one per actor).
    public func makeExecutor(label: String) -> any SerialExecutor { SimExecutor(label) }
    /// The parked `SimExecutor`'s token (its ordinal); nil for any other executor.
    public func parkingToken(for executor: any SerialExecutor) -> UInt64? { (executor as? SimExecutor)?.park() }
    /// A `SimExecutor` with the parked one's ordinal and name.
    public func reviveExecutor(_ token: UInt64) -> any SerialExecutor { SimExecutor(reviving: token) }
    /// The running simulation's task executor.
    public var taskExecutor: (any TaskExecutor)? { Simulation.taskExecutor }
}

/// The simulation's named random streams, as the domain core's `RandomSource`.
public struct SimRandomSource: RandomSource {
    /// The run's named streams.
    public let streams: RandomStreams
    /// Randomness from `streams`.
    public init(streams: RandomStreams) { self.streams = streams }
    /// The stream called `name`.
    public func stream(named name: String) -> any RandomNumberGenerator { streams.stream(named: name) }
}
