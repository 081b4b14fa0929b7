import Synchronization

/// Remembers which simulation captured each task that left for the global executor, so a later
/// job of that task enqueued from another thread (a real timer, a Dispatch queue) is recognised
/// as an escape from that simulation instead of silently running on the real thread pool.
enum ForeignJobRouter {
    private struct Entry {
        unowned(unsafe) let scheduler: Scheduler
    }
    private static let owners = Mutex<[UInt64: Entry]>([:])

    static func claim(_ job: UnownedJob, for scheduler: Scheduler) {
        let task = jobTaskID(job)
        guard task != 0 else { return }
        owners.withLock { $0[task] = Entry(scheduler: scheduler) }
    }

    static func owner(of job: UnownedJob) -> Scheduler? {
        let task = jobTaskID(job)
        guard task != 0 else { return nil }
        return owners.withLock { $0[task]?.scheduler }
    }

    /// Forgets every task of `scheduler` (called when its run ends).
    static func release(_ scheduler: Scheduler) {
        owners.withLock { table in
            table = table.filter { $0.value.scheduler !== scheduler }
        }
    }
}
