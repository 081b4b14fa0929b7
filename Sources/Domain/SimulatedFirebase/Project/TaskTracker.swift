import Synchronization

/// Counts the background tasks the backend spawns (trigger deliveries, listener pumps,
/// scheduled runs) so a caller can wait until the backend is quiescent.
public final class TaskTracker: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())
    /// The executor spawned tasks prefer (`DomainEnvironment.taskExecutor`).
    private let taskExecutor: (any TaskExecutor)?

    /// A tracker with no work in flight, whose tasks prefer `taskExecutor` (nil: none).
    public init(taskExecutor: (any TaskExecutor)? = nil) { self.taskExecutor = taskExecutor }

    /// Spawns `body` as an unstructured task (the simulator captures it) and counts it; the task
    /// is returned so its owner may cancel it.
    @discardableResult
    public func spawn(_ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { $0.running += 1 }
        return Task(executorPreference: taskExecutor) {
            // Backend work a function's write set off (a trigger delivery, a listener pump) is not
            // part of that function's invocation: its timeout or crash must not reach it.
            await Invocation.$current.withValue(nil) { await body() }
            self.finish()
        }
    }

    /// Whether spawned tasks carry an executor preference (tests).
    package var prefersTaskExecutor: Bool { taskExecutor != nil }

    /// Returns once no tracked task is running (at once if none is).
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func finish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            precondition(state.running > 0, "task tracker underflow")
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
