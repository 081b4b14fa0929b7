/// One pending `SimClock` sleep: resumed exactly once, by its timer or by cancellation.
final class SleepWaker: @unchecked Sendable {
    @exclusivity(unchecked) var cancelled = false
    @exclusivity(unchecked) var timer: UInt64?
    @exclusivity(unchecked) var continuation: UnsafeContinuation<Void, any Error>?

    /// Holds the sleeper's `continuation` and schedules its timer at `deadline`, or resumes it
    /// with `CancellationError` if the task was cancelled before it suspended.
    func arm(_ continuation: UnsafeContinuation<Void, any Error>, in scheduler: Scheduler, at deadline: UInt64) {
        if cancelled {
            continuation.resume(throwing: CancellationError())
            return
        }
        self.continuation = continuation
        timer = scheduler.schedule(self, atNanoseconds: deadline)
    }

    /// The timer fired: resume the sleeper unless cancellation already did.
    func wake() {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume()
    }

    /// The sleeping task was cancelled: drop the timer and resume with `CancellationError`.
    func cancel(in scheduler: Scheduler) {
        cancelled = true
        guard let continuation else { return }
        self.continuation = nil
        if let timer { scheduler.cancelTimer(timer) }
        continuation.resume(throwing: CancellationError())
    }
}
