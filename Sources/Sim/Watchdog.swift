#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Stops a process whose simulation is stuck inside one job: a loop without an `await` never
/// returns the thread to the scheduler, so no limit of the run can fire and nothing else can stop
/// it. A thread of its own watches the scheduler's step count; when it has not moved for `limit`
/// of wall time it writes one line naming the step, the actor and the task that are running, and
/// ends the process (exit status 70, EX_SOFTWARE), so a sweep or a test run fails instead of hanging.
final class Watchdog: @unchecked Sendable {
    /// The scheduler's steps, as the job about to run is counted.
    private let beat = Atomic<UInt64>(0)
    /// The running job's actor ordinal and task id.
    private let ordinal = Atomic<UInt32>(0)
    private let task = Atomic<UInt64>(0)
    private let stopped = Atomic<Bool>(false)
    /// Wall time one job may run.
    let limit: Duration
    /// The name of an actor ordinal (read once, when the job is stuck and the scheduler idle in it).
    private let label: (UInt32) -> String
    /// Names of tasks started by `Simulation.spawn` or `named`, by runtime task id (written when one
    /// starts, read only when a job is stuck).
    private let names = Mutex<[UInt64: String]>([:])
    private var thread = pthread_t()

    /// A watchdog allowing `limit` per job, naming actors with `label`.
    init(limit: Duration, label: @escaping (UInt32) -> String) {
        self.limit = limit
        self.label = label
    }

    /// Notes the job about to run (the scheduler's thread, every step).
    @inline(__always) func beat(step: UInt64, ordinal: UInt32, task: UInt64) {
        self.ordinal.store(ordinal, ordering: .relaxed)
        self.task.store(task, ordering: .relaxed)
        beat.store(step, ordering: .releasing)
    }

    /// Records `name` for the task whose runtime id is `task`.
    func name(task: UInt64, _ name: String) {
        names.withLock { $0[task] = name }
    }

    /// Starts watching on a thread of its own.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, watchdogEntry, context)
        precondition(status == 0, "pthread_create failed: \(status)")
    }

    /// Stops watching (the run ended) and waits for the thread.
    func stop() {
        stopped.store(true, ordering: .releasing)
        pthread_join(thread, nil)
    }

    /// The watching loop: every 50 ms, compares the step count with the last one seen.
    fileprivate func watch() {
        let pollNanoseconds: Int64 = 50_000_000
        let limitNanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        var last = beat.load(ordering: .acquiring), still: Int64 = 0
        while !stopped.load(ordering: .acquiring) {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(pollNanoseconds))
            _ = nanosleep(&pause, nil)  // not a simulation thread: the interposer passes it through
            let now = beat.load(ordering: .acquiring)
            if now != last {
                last = now
                still = 0
                continue
            }
            still += pollNanoseconds
            guard still >= limitNanoseconds, !stopped.load(ordering: .acquiring) else { continue }
            let ordinal = ordinal.load(ordering: .relaxed)
            let where_ = ordinal == 0 ? "nonisolated code" : "actor \(label(ordinal))"
            let id = task.load(ordering: .relaxed)
            let who = names.withLock { $0[id] }.map { "task \($0)" } ?? "an unnamed task (id \(id))"
            let line = "rehearsal watchdog: the simulation has run one job for \(limit) without returning to the scheduler (step \(now), \(who), \(where_)): a loop without an await never yields the simulation's thread; stopping the process\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            _exit(70)
        }
    }
}

private func watchdogEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<Watchdog>.fromOpaque(context!).takeRetainedValue().watch()
    return nil
}
