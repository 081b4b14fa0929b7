@_spi(ExperimentalScheduling) import _Concurrency

/// The simulation's task executor: the preferred executor of the root task (and so of its
/// `async let` and task-group children), where nonisolated code runs. As a `SchedulingExecutor`
/// it receives `Task.sleep` on any clock and turns it into a virtual-time timer.
final class SimTaskExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    unowned let scheduler: Scheduler

    init(scheduler: Scheduler) { self.scheduler = scheduler }

    func enqueue(_ job: consuming ExecutorJob) {
        scheduler.enqueue(UnownedJob(job), on: nil, origin: .task)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        scheduler.schedule(UnownedJob(job), afterNanoseconds: Self.nanoseconds(delay, clock: clock))
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        // `clock.now` is virtual here: SimClock is, and the interposer makes the system clocks so.
        let delay = clock.now.duration(to: instant)
        scheduler.schedule(UnownedJob(job), afterNanoseconds: Self.nanoseconds(delay, clock: clock))
    }

    private static func nanoseconds<C: Clock>(_ delay: C.Duration, clock: C) -> UInt64 {
        guard let duration = delay as? Duration else {
            preconditionFailure("Task.sleep on a clock whose Duration is not Swift.Duration (\(C.self)) is not supported in a simulation")
        }
        return duration < .zero ? 0 : UInt64(bitPattern: duration.simNanoseconds)
    }
}
