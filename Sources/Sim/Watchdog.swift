#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Fails a simulation that is stuck inside one job: a loop without an `await` never returns the
/// thread to the scheduler, so no limit of the run can fire and nothing else can stop it. One
/// monitor thread per process (`WatchdogMonitor`) looks at every running simulation's step count
/// every 50 ms; when one has not moved for `limit` of wall time it has a line naming the step, the
/// task and the actor that are running. A watched run runs on a thread of its own
/// (`WatchedRun`), so the line ends that run only (`SimulationOutcome.stuckJob`) and its thread is
/// abandoned; once `AbandonedRuns.budget` threads are, or for a run with no thread of its own, the
/// line is written and the process ends (exit status 70, EX_SOFTWARE), so nothing hangs.
final class Watchdog: @unchecked Sendable {
    /// The scheduler's steps, as the job about to run is counted.
    private let beat = Atomic<UInt64>(0)
    /// The running job's actor ordinal and task id.
    private let ordinal = Atomic<UInt32>(0)
    private let task = Atomic<UInt64>(0)
    /// Wall time one job may run.
    let limit: Duration
    /// The name of an actor ordinal (read once, when the job is stuck and the scheduler idle in it).
    private let label: (UInt32) -> String
    /// Names of tasks started by `Simulation.spawn` or `named`, by runtime task id (written when one
    /// starts, read only when a job is stuck).
    private let names = Mutex<[UInt64: String]>([:])
    /// Ends the watched run with the stuck-job line instead of the process (set before `start`);
    /// false when the run had finished meanwhile.
    nonisolated(unsafe) var contain: ((String) -> Bool)?
    /// The monitor's view: the last step count seen and how long it has not moved (monitor thread only).
    fileprivate var lastSeen: UInt64 = .max
    fileprivate var stillNanoseconds: Int64 = 0

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

    /// Starts being watched.
    func start() { WatchdogMonitor.shared.add(self) }

    /// Stops being watched (the run ended).
    func stop() { WatchdogMonitor.shared.remove(self) }

    /// The monitor's poll, `elapsed` after the last: the line to write when the job is stuck.
    fileprivate func poll(elapsed: Int64) -> String? {
        let now = beat.load(ordering: .acquiring)
        if now != lastSeen {
            lastSeen = now
            stillNanoseconds = 0
            return nil
        }
        stillNanoseconds += elapsed
        let limitNanoseconds = limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        guard stillNanoseconds >= limitNanoseconds else { return nil }
        let ordinal = ordinal.load(ordering: .relaxed)
        let where_ = ordinal == 0 ? "nonisolated code" : "actor \(label(ordinal))"
        let id = task.load(ordering: .relaxed)
        let who = names.withLock { $0[id] }.map { "task \($0)" } ?? "an unnamed task (id \(id))"
        return "rehearsal watchdog: the simulation has run one job for \(limit) without returning to the scheduler (step \(now), \(who), \(where_)): a loop without an await never yields the simulation's thread"
    }
}

/// The process's one watchdog thread, started with the first watched run and kept for the
/// process's life; it polls every registered `Watchdog` every 50 ms.
final class WatchdogMonitor: @unchecked Sendable {
    static let shared = WatchdogMonitor()
    private let watched = Mutex<[Watchdog]>([])
    private let started = Atomic<Bool>(false)
    private var thread = pthread_t()
    private static let pollNanoseconds: Int64 = 50_000_000

    func add(_ watchdog: Watchdog) {
        watched.withLock { $0.append(watchdog) }
        if !started.load(ordering: .acquiring), started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            let status = pthread_create(&thread, nil, watchdogMonitorEntry, nil)
            precondition(status == 0, "pthread_create failed: \(status)")
            pthread_detach(thread)
        }
    }

    func remove(_ watchdog: Watchdog) {
        watched.withLock { $0.removeAll { $0 === watchdog } }
    }

    /// Polls forever; ends the process at the first stuck job.
    fileprivate func watch() -> Never {
        while true {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.pollNanoseconds))
            _ = nanosleep(&pause, nil)  // not a simulation thread: the interposer passes it through
            let stuck = watched.withLock { table -> (Watchdog, String)? in
                guard let found = table.lazy.compactMap({ watchdog in watchdog.poll(elapsed: Self.pollNanoseconds).map { (watchdog, $0) } }).first else { return nil }
                table.removeAll { $0 === found.0 }
                return found
            }
            guard let (watchdog, line) = stuck else { continue }
            if let contain = watchdog.contain, let abandoned = AbandonedRuns.claim() {
                let line = line + "; this run fails and its thread is abandoned, still in the job (\(abandoned) of \(AbandonedRuns.budget) stuck threads a process may hold at once)"
                if !contain(line) { AbandonedRuns.release() }
                continue
            }
            let why = watchdog.contain == nil ? "" : " (\(AbandonedRuns.budget) stuck runs already abandoned, each holding a core)"
            let message = line + "; stopping the process\(why)\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            _exit(70)
        }
    }
}

private func watchdogMonitorEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    WatchdogMonitor.shared.watch()
}
