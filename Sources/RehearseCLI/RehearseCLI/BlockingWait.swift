import Dispatch

/// Waits on the calling thread for async work run on the global pool (a wall-clock load run, a
/// command's real-runtime measurement): never called on a simulation thread.
package enum BlockingWait {
    /// Runs `body` detached and blocks until it returns.
    package static func run(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached { await body(); done.signal() }
        done.wait()
    }
}
