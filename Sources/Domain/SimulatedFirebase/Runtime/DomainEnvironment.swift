/// Everything the domain core takes from outside: time, executors, randomness.
///
/// The simulator builds one from its virtual clock, per-actor executors and seeded streams; the
/// real runtime builds one from `ContinuousClock`, `ConcurrentPoolExecutorSource` and a
/// `SeededRandomSource`. The domain core behaves identically on both.
public struct DomainEnvironment: Sendable {
    /// Time, with the calendar instant of its zero.
    public var clock: DomainClock
    /// Where each domain actor gets its executor.
    public var executors: any ActorExecutorSource
    /// Seeded randomness, as named independent streams.
    public var random: any RandomSource

    /// Where parked documents go out of memory, or nil to keep them packed in memory.
    public var coldStorage: (any ColdStorage)?

    /// An environment of the given clock, executors, randomness and (optionally) cold storage.
    public init(clock: DomainClock, executors: any ActorExecutorSource, random: any RandomSource, coldStorage: (any ColdStorage)? = nil) {
        self.clock = clock
        self.executors = executors
        self.random = random
        self.coldStorage = coldStorage
    }

    /// A serial executor for one new domain actor (see `DomainActor`).
    public func makeExecutor(label: String) -> any SerialExecutor {
        executors.makeExecutor(label: label)
    }

    /// A token standing for a parked actor's `executor`, or nil to keep it (see `ActorExecutorSource`).
    func parkingToken(for executor: any SerialExecutor) -> UInt64? {
        executors.parkingToken(for: executor)
    }

    /// The executor a parking token stood for.
    func reviveExecutor(_ token: UInt64) -> any SerialExecutor {
        executors.reviveExecutor(token)
    }

    /// The executor background tasks prefer (see `ActorExecutorSource.taskExecutor`): on the
    /// simulator its task executor, so their nonisolated calls continue inline as on the real
    /// runtime instead of costing a scheduler step each.
    public var taskExecutor: (any TaskExecutor)? { executors.taskExecutor }

    /// The generator for stream `name` (see `RandomSource`).
    public func randomStream(_ name: String) -> any RandomNumberGenerator {
        random.stream(named: name)
    }

    /// An environment on the real runtime: `ContinuousClock`, the concurrent pool, and a seed.
    public static func realRuntime(seed: UInt64, epochUnixNanoseconds: Int64) -> DomainEnvironment {
        DomainEnvironment(
            clock: DomainClock(ContinuousClock(), epochUnixNanoseconds: epochUnixNanoseconds),
            executors: ConcurrentPoolExecutorSource(),
            random: SeededRandomSource(seed: seed)
        )
    }
}
