import Synchronization

/// The server's table of transactions that hold or may hold document locks (MODEL_RULES §23;
/// docs/domain.md, "Server transactions lock").
///
/// A server-SDK transaction in a pessimistic database locks every document it reads until it
/// commits or aborts; a write, a commit or another transaction's commit waits for those locks.
/// Conflicts between two transactions are settled by age (wound-wait): an older transaction that
/// needs a lock a younger one holds aborts the younger (which retries, keeping its age), a younger
/// one waits for an older one. Client commits (the mobile SDK's optimistic transactions) are
/// entered too, as the youngest: they wait for server locks and can be wounded, never wound. A
/// transaction idle past `transactionLockIdleTimeout` or older than `transactionMaxLifetime`
/// has expired: its locks no longer count, and its next read or its commit fails ABORTED.
///
/// Entries are keyed by attempt (a transaction's id); `priority` is its age. Only the document
/// actors and the transaction runner call it; no call suspends.
final class TransactionLocks: Sendable {
    /// Where an attempt stands.
    enum Phase: Sendable, Equatable {
        /// Reading, or preparing its commit: may be wounded and may expire.
        case active
        /// Every document prepared and the commit decided: neither wounded nor expired.
        case committing
        /// Wounded or expired: its locks no longer count.
        case aborted(AbortReason)
    }

    /// What a requester does about a holder of a conflicting lock.
    enum Resolution: Sendable, Equatable {
        /// The holder's lock no longer counts (it ended, was wounded now or earlier, or expired).
        case drop
        /// Wait until the holder releases, or until this time (Unix nanoseconds) when it expires;
        /// `serverLock`: the holder is a server transaction (a lock wait), not a client commit.
        case wait(until: Int64, serverLock: Bool)
    }

    private struct Entry {
        /// Wound-wait age: smaller is older. A retried transaction keeps its first attempt's.
        let priority: UInt64
        /// A server transaction that locks what it reads (false: a client commit).
        let locking: Bool
        let began: Int64
        var lastActivity: Int64
        var phase: Phase
    }

    /// The age given to client commits: younger than every server transaction.
    static let youngest = UInt64.max

    private let table = Mutex<[UInt64: Entry]>([:])
    private let clock: DomainClock
    private let ledger: FaultLedger
    private let idleTimeout: Int64
    private let lifetime: Int64

    init(clock: DomainClock, faults: BackendFaults, ledger: FaultLedger) {
        precondition(faults.transactionLockIdleTimeout > .zero && faults.transactionMaxLifetime > .zero, "transaction time limits must be positive")
        self.clock = clock
        self.ledger = ledger
        idleTimeout = faults.transactionLockIdleTimeout.nanoseconds
        lifetime = faults.transactionMaxLifetime.nanoseconds
    }

    /// Enters attempt `id` of age `priority`; `locking`: a server transaction (false: a client commit).
    func begin(_ id: UInt64, priority: UInt64, locking: Bool) {
        let now = clock.nowUnixNanoseconds
        table.withLock { table in
            assert(table[id] == nil, "transaction \(id) entered twice")
            table[id] = Entry(priority: priority, locking: locking, began: now, lastActivity: now, phase: .active)
        }
    }

    /// Removes attempt `id` (committed, or aborted with its locks released).
    func end(_ id: UInt64) {
        table.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Before a read or a step of the commit: ABORTED if the attempt was wounded or has expired;
    /// otherwise the attempt is busy now.
    func touch(_ id: UInt64) throws(BackendError) {
        let now = clock.nowUnixNanoseconds
        let outcome = table.withLock { table -> (reason: AbortReason?, expiredNow: Bool) in
            guard var entry = table[id] else { return (nil, false) }
            if case .aborted(let reason) = entry.phase { return (reason, false) }
            if entry.phase == .active, let reason = expiry(of: entry, at: now) {
                entry.phase = .aborted(reason)
                table[id] = entry
                return (reason, true)
            }
            entry.lastActivity = now
            table[id] = entry
            return (nil, false)
        }
        if outcome.expiredNow { ledger.observe(.transactionExpired, subject: "transaction \(id)") }
        if let reason = outcome.reason { throw .aborted(reason) }
    }

    /// Every document is prepared: the attempt commits unless it was wounded or has expired.
    func beginCommit(_ id: UInt64) throws(BackendError) {
        try touch(id)
        table.withLock { table in
            guard table[id] != nil else { return }
            table[id]!.phase = .committing
        }
    }

    /// Whether `id` has prepared every document and is installing its writes.
    func isCommitting(_ id: UInt64) -> Bool {
        table.withLock { $0[id]?.phase == .committing }
    }

    /// Whether `id` is a client commit (an optimistic transaction's commit).
    func isClientCommit(_ id: UInt64) -> Bool {
        table.withLock { $0[id].map { !$0.locking } ?? false }
    }

    /// What `requester` (nil: a write outside any transaction) does about `holder`'s lock on
    /// `path`: an ended, aborted or expired holder's lock is dropped; an older requester wounds an
    /// active holder (dropped); otherwise it waits, until the holder's expiry at the latest.
    func resolve(requester: UInt64?, holder: UInt64, path: DocumentPath) -> Resolution {
        let now = clock.nowUnixNanoseconds
        let (resolution, event) = table.withLock { table -> (Resolution, FaultKind?) in
            guard var entry = table[holder] else { return (.drop, nil) }
            switch entry.phase {
            case .aborted: return (.drop, nil)
            case .committing: return (.wait(until: .max, serverLock: entry.locking), nil)
            case .active: break
            }
            if let reason = expiry(of: entry, at: now) {
                entry.phase = .aborted(reason)
                table[holder] = entry
                return (.drop, .transactionExpired)
            }
            if let requester, let mine = table[requester], mine.priority < entry.priority {
                entry.phase = .aborted(.wounded(path))
                table[holder] = entry
                return (.drop, .transactionWounded)
            }
            // A client commit only prepares and commits: it releases without a timer to wake for.
            guard entry.locking else { return (.wait(until: .max, serverLock: false), nil) }
            return (.wait(until: min(entry.lastActivity + idleTimeout, entry.began + lifetime), serverLock: true), nil)
        }
        if let event { ledger.observe(event, subject: "transaction \(holder) on \(path)") }
        return resolution
    }

    /// Why an active attempt has expired at `now`, if it has.
    private func expiry(of entry: Entry, at now: Int64) -> AbortReason? {
        guard entry.locking else { return nil }  // a client commit never idles: it only prepares and commits
        // At the limit itself it has expired: a waiter woken at that instant must see it so.
        if now - entry.began >= lifetime { return .expired(idle: false, limit: .nanoseconds(lifetime)) }
        if now - entry.lastActivity >= idleTimeout { return .expired(idle: true, limit: .nanoseconds(idleTimeout)) }
        return nil
    }

    /// Attempts entered and not ended (tests: none is left once a run is idle).
    package var liveCount: Int { table.withLock { $0.count } }
}
