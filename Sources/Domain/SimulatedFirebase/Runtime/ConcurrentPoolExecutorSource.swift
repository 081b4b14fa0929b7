import Synchronization

/// The executor source for the real Swift runtime: each actor gets a serial queue drained on
/// the global concurrent executor, so the domain core runs on all cores at full speed.
public struct ConcurrentPoolExecutorSource: ActorExecutorSource {
    /// A source whose executors run on the global concurrent pool.
    public init() {}

    /// A new serial executor (one per actor) on the global pool.
    public func makeExecutor(label: String) -> any SerialExecutor {
        SerialQueueExecutor(label: label)
    }
}

/// A serial executor that keeps its jobs in FIFO order and runs them, one at a time, on the
/// global concurrent executor. Invariant: at most one drain is scheduled or running at a time.
///
/// The kernel's `QueueExecutor` (Sources/Sim/QueueExecutor.swift) is the same code, kept as a
/// twin because the package's arrows leave no module both could import: SimulatedFirebase
/// imports no target of this package below it (it runs in production without the kernel) and
/// Sim imports no target at all. `SourceHygieneTests.theSerialQueueTwinsAreTheSameCode` fails
/// when their bodies differ (apart from `public`).
final class SerialQueueExecutor: SerialExecutor, @unchecked Sendable {
    /// The actor's name (for debugging).
    let label: String
    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        var draining = false
    }
    private let state = Mutex(State())

    /// A new executor for one actor.
    init(label: String) { self.label = label }

    /// Appends `job`; starts a drain on the global executor when none is running.
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let startDrain = state.withLock { state -> Bool in
            state.jobs.append(unowned)
            if state.draining { return false }
            state.draining = true
            return true
        }
        if startDrain { scheduleDrain() }
    }

    /// This executor as the runtime needs it.
    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    private func scheduleDrain() {
        let executor = self
        Task.detached { executor.drain() }
    }

    /// Runs the jobs present now; reschedules itself if more arrived, so one busy actor cannot
    /// monopolise a pool thread forever.
    private func drain() {
        var batch = 0
        while batch < 64 {
            let next: UnownedJob? = state.withLock { state in
                guard state.head < state.jobs.count else {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.head = 0
                    state.draining = false
                    return nil
                }
                let job = state.jobs[state.head]
                state.head += 1
                return job
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedSerialExecutor())
            batch += 1
        }
        scheduleDrain()
    }
}
