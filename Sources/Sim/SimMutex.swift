import DequeModule

/// An async mutual-exclusion lock for code running in a simulation. Acquiring is a scheduling
/// point (the strategy may run anything else first), waiters are served first come first served,
/// and while a task waits, a deadlock report names it, the lock and the holder:
/// `"transfer-b waiting for SimMutex 'account-2' held by transfer-a"`.
///
/// ```swift
/// let accounts = SimMutex("accounts")
/// await accounts.withLock(as: "transfer-1") { await ledger.move(10, from: a, to: b) }
/// ```
///
/// A blocking lock (`Mutex`, `NSLock`, a semaphore) held across an `await` would stop the
/// simulation's only thread; this one suspends the task instead. Use it only inside a simulation.
public final class SimMutex: @unchecked Sendable {
    // Touched only on the simulation's thread (the scheduler runs one job at a time there).
    private struct Waiter {
        var owner: String
        var registration: UInt64
        var continuation: UnsafeContinuation<Void, Never>
    }

    /// The lock's name in deadlock reports.
    public let name: String
    @exclusivity(unchecked) private var holder: String?
    @exclusivity(unchecked) private var waiters = Deque<Waiter>()

    /// A new, unlocked mutex named `name`.
    public init(_ name: String) { self.name = name }

    /// Who holds the lock now (the `owner` it was acquired as), or nil.
    public var owner: String? { holder }

    /// Acquires the lock as `owner` (the name deadlock reports use), waiting while another holds it.
    public func lock(as owner: String = "task") async {
        await Simulation.point()
        guard let current = holder else {
            holder = owner
            return
        }
        let scheduler = Simulation.current()
        let registration = scheduler.namedTaskStarted("\(owner) waiting for SimMutex '\(name)' held by \(current)")
        await withUnsafeContinuation { continuation in
            // Re-checked where it parks (docs/architecture.md, "Parking a continuation").
            if holder == nil {
                holder = owner
                scheduler.namedTaskFinished(registration)
                continuation.resume()
            } else {
                waiters.append(Waiter(owner: owner, registration: registration, continuation: continuation))
            }
        }
        assert(holder == owner, "SimMutex '\(name)' was handed to \(holder ?? "nobody"), not to the waiter \(owner)")
    }

    /// Releases the lock; the longest waiter, if any, holds it next.
    public func unlock() {
        precondition(holder != nil, "SimMutex '\(name)' unlocked while not locked")
        guard let next = waiters.popFirst() else {
            holder = nil
            return
        }
        holder = next.owner
        Simulation.current().namedTaskFinished(next.registration)
        next.continuation.resume()
    }

    /// Runs `body` holding the lock as `owner`; releases it however `body` ends.
    public func withLock<T>(as owner: String = "task", _ body: () async throws -> T) async rethrows -> T {
        await lock(as: owner)
        defer { unlock() }
        return try await body()
    }
}
