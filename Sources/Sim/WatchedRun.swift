#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A watched run on a thread of its own, so a stuck job fails only its run: the caller waits for
/// the run's result or the watchdog's stuck-job line, whichever comes first. A stuck run's thread
/// is abandoned (no Swift code can be stopped from outside: it keeps running its job, and if the
/// job ever returns, its run ends unseen and the thread exits); at most `AbandonedRuns.budget` at
/// once per process, each holding a core, after which the watchdog ends the process as it ends
/// one whose run has no thread of its own.
final class WatchedRun<Result: Sendable>: @unchecked Sendable {
    private enum State { case running, finished(Result), stuck(String) }
    private let state = Mutex<State>(.running)
    /// The waiter sleeps on `condition` (allocated: a pthread object never moves).
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let work: () -> Result

    private init(_ work: @escaping () -> Result) {
        self.work = work
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `work` on a runner thread watched by `watchdog` (started here, stopped by `work`): its
    /// result, or the stuck-job line.
    static func run(_ watchdog: Watchdog, _ work: @escaping () -> Result) -> Swift.Result<Result, StuckJob> {
        let run = WatchedRun(work)
        watchdog.contain = { line in run.settle(.stuck(line)) }  // false: the run had just finished
        watchdog.start()
        let runner = RunnerThread.acquire()
        runner.submit { run.main() }
        let result = run.wait()
        // A stuck runner stays with its job; it comes back by itself if the job ever returns.
        if case .success = result { runner.recycle() }
        return result
    }

    /// The run thread's body; true when the run had been abandoned as stuck and ended after all
    /// (its thread no longer holds a core, and gives its place in the budget back).
    fileprivate func main() -> Bool {
        if settle(.finished(work())) { return false }
        AbandonedRuns.release()
        return true
    }

    /// The first of a finished run and a stuck job wins (true); the other is dropped (false).
    @discardableResult
    private func settle(_ outcome: State) -> Bool {
        let settled = state.withLock { state in
            guard case .running = state else { return false }
            state = outcome
            return true
        }
        guard settled else { return false }
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        return true
    }

    private func wait() -> Swift.Result<Result, StuckJob> {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            switch state.withLock({ $0 }) {
            case .running: pthread_cond_wait(condition, mutex)
            case .finished(let result): return .success(result)
            case .stuck(let line): return .failure(StuckJob(line: line))
            }
        }
    }
}

/// A job the watchdog found stuck: its line (step, task, actor, and that its thread was abandoned).
struct StuckJob: Error {
    let line: String
}

/// How many stuck runs this process has abandoned, and how many it may: each keeps a core busy.
enum AbandonedRuns {
    /// Runs a process may abandon before a stuck job ends it (exit 70).
    static let budget = 2
    private static let count = Atomic<Int>(0)

    /// Claims one abandonment: the number it is (1-based), or nil when the budget is spent.
    static func claim() -> Int? {
        let claimed = count.add(1, ordering: .relaxed).newValue
        guard claimed <= budget else {
            count.subtract(1, ordering: .relaxed)
            return nil
        }
        return claimed
    }

    /// An abandoned run ended after all (its job returned).
    static func release() { count.subtract(1, ordering: .relaxed) }

    /// Runs abandoned and still running.
    static var current: Int { count.load(ordering: .relaxed) }
}

/// A thread that runs watched runs one after another, kept between runs (a thread and its
/// stack made once, not per seed): idle ones wait in a pool for the next run.
final class RunnerThread: @unchecked Sendable {
    private static let idle = Mutex<[RunnerThread]>([])
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The job to run next (guarded by `mutex`); it returns true when the runner should put itself
    /// back in the pool (an abandoned run that ended after all).
    private var job: (() -> Bool)?

    private init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    /// An idle runner, or a new one.
    static func acquire() -> RunnerThread {
        if let runner = idle.withLock({ $0.popLast() }) { return runner }
        let runner = RunnerThread()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let context = Unmanaged.passRetained(runner).toOpaque()
        let status = pthread_create(&thread, &attributes, runnerThreadEntry, context)
        pthread_attr_destroy(&attributes)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
        return runner
    }

    /// Hands the runner its next job.
    func submit(_ next: @escaping () -> Bool) {
        pthread_mutex_lock(mutex)
        precondition(job == nil, "a runner takes one job at a time")
        job = next
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Puts the runner back in the pool (its job is done, or about to return).
    func recycle() { Self.idle.withLock { $0.append(self) } }

    /// The thread's life: wait for a job, run it, forever.
    fileprivate func loop() -> Never {
        while true {
            pthread_mutex_lock(mutex)
            while job == nil { pthread_cond_wait(condition, mutex) }
            let next = job!
            job = nil
            pthread_mutex_unlock(mutex)
            if next() { recycle() }
        }
    }
}

private func runnerThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<RunnerThread>.fromOpaque(context!).takeRetainedValue().loop()
}
