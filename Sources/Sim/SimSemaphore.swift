import DequeModule

/// A counting semaphore for code running in a simulation: `wait()` is a scheduling point and
/// suspends the task (never the thread) while no permit is free; waiters are served first come
/// first served and named in deadlock reports (`"worker-3 waiting for SimSemaphore 'pool'"`).
///
/// ```swift
/// let pool = SimSemaphore("connections", permits: 2)
/// await pool.wait(as: "query-7"); defer { pool.signal() }
/// ```
public final class SimSemaphore: @unchecked Sendable {
    // Touched only on the simulation's thread (the scheduler runs one job at a time there).
    private struct Waiter {
        var registration: UInt64
        var continuation: UnsafeContinuation<Void, Never>
    }

    /// The semaphore's name in deadlock reports.
    public let name: String
    @exclusivity(unchecked) private var permits: Int
    @exclusivity(unchecked) private var waiters = Deque<Waiter>()

    /// A semaphore named `name` with `permits` free permits (≥ 0).
    public init(_ name: String, permits: Int) {
        precondition(permits >= 0, "SimSemaphore '\(name)' needs a non-negative number of permits")
        self.name = name
        self.permits = permits
    }

    /// Free permits now.
    public var available: Int { permits }

    /// Takes a permit as `owner` (the name deadlock reports use), waiting while none is free.
    public func wait(as owner: String = "task") async {
        await Simulation.point()
        if permits > 0 {
            permits -= 1
            return
        }
        let scheduler = Simulation.current()
        let registration = scheduler.namedTaskStarted("\(owner) waiting for SimSemaphore '\(name)'")
        await withUnsafeContinuation { continuation in
            // Re-checked where it parks (docs/architecture.md, "Parking a continuation").
            if permits > 0 {
                permits -= 1
                scheduler.namedTaskFinished(registration)
                continuation.resume()
            } else {
                waiters.append(Waiter(registration: registration, continuation: continuation))
            }
        }
    }

    /// Returns a permit: the longest waiter, if any, takes it.
    public func signal() {
        guard let next = waiters.popFirst() else {
            permits += 1
            return
        }
        Simulation.current().namedTaskFinished(next.registration)
        next.continuation.resume()
    }
}
