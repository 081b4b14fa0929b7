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
final class SerialQueueExecutor: SerialExecutor, @unchecked Sendable {
    let label: String
    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        var draining = false
    }
    private let state = Mutex(State())

    init(label: String) { self.label = label }

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
