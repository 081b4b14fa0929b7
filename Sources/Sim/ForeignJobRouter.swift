import Synchronization

/// Remembers which simulation captured each task that left for the global executor, so a later
/// job of that task enqueued from another thread (a real timer, a Dispatch queue) is recognised
/// as an escape from that simulation instead of silently running on the real thread pool.
///
/// Each scheduler keeps its own `TaskClaims` under its own lock (a claim, on every job captured
/// from the global executor, takes no lock another simulation thread contends for); the shared
/// list of schedulers that claimed anything changes only when a run claims its first task and
/// when it ends. Only a job arriving from a foreign thread walks that list. A task two live
/// simulations both captured (only possible through state shared between concurrent runs, an
/// escape either way) is routed to the one that claimed a task first.
enum ForeignJobRouter {
    private struct Entry {
        unowned(unsafe) let scheduler: Scheduler
    }
    private static let claimants = Mutex<[Entry]>([])

    /// Remembers that `scheduler` captured task `task` (0, a job without a task, is not claimed).
    static func claim(task: UInt64, for scheduler: Scheduler) {
        guard task != 0, task != scheduler.lastClaimedTask else { return }
        scheduler.lastClaimedTask = task
        if !scheduler.claimsRegistered {
            scheduler.claimsRegistered = true
            claimants.withLock { $0.append(Entry(scheduler: scheduler)) }
        }
        scheduler.taskClaims.withLock { $0.insert(task) }
    }

    static func owner(of job: UnownedJob) -> Scheduler? {
        let task = jobTaskID(job)
        guard task != 0 else { return nil }
        return claimants.withLock { list in
            list.first { $0.scheduler.taskClaims.withLock { $0.contains(task) } }?.scheduler
        }
    }

    /// Forgets every task of `scheduler` (called when its run ends; a scheduler can outlive its
    /// run, held by its executors, so its bits are dropped here, not when it is freed).
    static func release(_ scheduler: Scheduler) {
        guard scheduler.claimsRegistered else { return }
        claimants.withLock { list in list.removeAll { $0.scheduler === scheduler } }
        scheduler.taskClaims.withLock { $0 = TaskClaims() }
    }
}
