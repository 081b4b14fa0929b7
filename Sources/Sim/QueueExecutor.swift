import Synchronization

/// A production serial executor: keeps its jobs in FIFO order and runs them, one at a time, on
/// the global concurrent executor. Invariant: at most one drain is scheduled or running at a time.
/// (What `RehearsableExecutor.make` gives an actor created outside a simulation.)
///
/// SimulatedFirebase's `SerialQueueExecutor` (behind `ConcurrentPoolExecutorSource`) is the same
/// code, kept as a twin because the package's arrows leave no module both could import: Sim
/// imports no target of this package, and SimulatedFirebase does not import Sim (it runs in
/// production without the kernel). `SourceHygieneTests.theSerialQueueTwinsAreTheSameCode` fails
/// when their bodies differ (apart from `public`).
public final class QueueExecutor: SerialExecutor, @unchecked Sendable {
    /// The actor's name (for debugging).
    public let label: String
    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        var draining = false
    }
    private let state = Mutex(State())

    /// A new executor for one actor.
    public init(label: String) { self.label = label }

    /// Appends `job`; starts a drain on the global executor when none is running.
    public func enqueue(_ job: consuming ExecutorJob) {
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
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
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
