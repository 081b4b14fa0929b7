import Synchronization

/// The unit Firestore serialises writes on: one document, its version, and the transaction
/// lock that makes a multi-document commit atomic.
///
/// A transaction commit is two-phase: `prepare` on every involved document (in path order)
/// validates the read version, applies the writes to a pending copy, checks the rules and takes
/// the lock; `commitPrepared` installs the pending copy. A prepare that finds another
/// transaction's lock aborts at once (never waits), so there is no deadlock and no global lock.
/// Plain writes wait for the lock to be released so they never slip between prepare and commit.
///
/// An idle actor can be parked (`CollectionStore` drops it and keeps only its executor) and
/// rebuilt from the collection's index when the document is next used: `parkableFrom` is the
/// virtual time from which a rebuilt actor would behave exactly as this one (no lock, no waiter,
/// no contention stream of its own, the document existing or never written, and the write-rate
/// bucket full again), `Int64.max` while it would not.
actor DocumentActor: DomainActor {
    nonisolated let executor: any SerialExecutor
    nonisolated let path: DocumentPath
    /// Unix nanoseconds from which this actor may be parked (see the type's comment).
    nonisolated let parkableFrom = Atomic<Int64>(0)
    /// Whether the registry handed this actor out again since the last parking pass: such an
    /// actor is spared once (a second chance), so documents in steady use (an honor, a bidder)
    /// are not parked and rebuilt at every pass.
    nonisolated let reused = Atomic<Bool>(false)
    private unowned let firestore: Firestore
    private var fields: Fields?
    private var version: UInt64 = 0
    private var updateTime = Timestamp(unixNanoseconds: 0)
    private var lock: (transaction: UInt64, pending: Fields?, writes: Bool)?
    private var lockWaiters: [CheckedContinuation<Void, Never>] = []
    /// Write-rate token bucket (MODEL_RULES §6): refills at `documentWritesPerSecond`.
    private var rateTokens: Double
    private var rateRefillNanoseconds: Int64 = 0
    private var contentionRandom: (any RandomNumberGenerator)?

    /// A fresh document actor, or (`executor` and `current` given) the rebuild of a parked one: its
    /// executor (the same actor to the scheduler and in traces) and its last committed state.
    init(path: DocumentPath, firestore: Firestore, executor: (any SerialExecutor)? = nil, current: DocumentSnapshot? = nil) {
        self.path = path
        self.firestore = firestore
        self.executor = executor ?? firestore.env.makeExecutor(label: "doc/\(path)")
        self.rateTokens = firestore.faults.documentBurstWrites
        if let current {
            assert(current.path == path && current.exists, "a parked document is rebuilt from its own existing snapshot")
            fields = current.fields
            version = current.version
            updateTime = current.updateTime
        }
    }

    /// Publishes when this actor could be parked; called at the end of every change to its state.
    private func updateParkable() {
        guard lock == nil, lockWaiters.isEmpty, contentionRandom == nil, fields != nil || version == 0 else {
            parkableFrom.store(.max, ordering: .releasing)
            return
        }
        if rateRefillNanoseconds == 0 {
            // Never refilled: full only if never drawn from (a write at clock 0 also leaves 0, and
            // `takeRateToken` would not refill it: such an actor is not parked until it is).
            parkableFrom.store(rateTokens == firestore.faults.documentBurstWrites ? 0 : .max, ordering: .releasing)
            return
        }
        // Full again (takeRateToken's `min` returns the burst exactly) once the refill covers the
        // missing tokens; a millisecond of margin keeps rounding out of it.
        let faults = firestore.faults
        let seconds = (faults.documentBurstWrites - rateTokens) / faults.documentWritesPerSecond
        guard seconds.isFinite, seconds < 1e6 else {
            parkableFrom.store(.max, ordering: .releasing)
            return
        }
        let full = rateRefillNanoseconds + Int64((max(0, seconds) * 1e9).rounded(.up)) + 1_000_000
        parkableFrom.store(full, ordering: .releasing)
    }

    func snapshot() -> DocumentSnapshot {
        DocumentSnapshot(path: path, fields: fields, version: version, updateTime: updateTime)
    }

    /// A single write outside any transaction. Returns the snapshot after it.
    func write(_ operation: WriteOperation, authorize: Authorizer?) async throws(BackendError) -> DocumentSnapshot {
        defer { updateParkable() }
        while lock != nil {
            // Re-checked where it parks: in release builds the continuation's body was seen to run
            // after other jobs of this actor, one of them the release this write waited for, so a
            // waiter appended then was never woken (heartbeat-timeline, 5,000 users, seed 1;
            // docs/architecture.md, "Parking a continuation").
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                if lock == nil { waiter.resume() } else { lockWaiters.append(waiter) }
            }
        }
        let now = firestore.env.clock.now
        _ = takeRateToken(now: now)
        let after = try operation.apply(to: fields, path: path, commitTime: now)
        if let authorize, !authorize(path, fields, after) {
            throw .permissionDenied(operation: ruleOperation(before: fields, after: after).rawValue, path: path.description)
        }
        install(after, now: now)
        return snapshot()
    }

    /// Phase one of a transaction commit; see the type's comment.
    func prepare(
        transaction: UInt64, expectedVersion: UInt64?, writes: [WriteOperation], authorize: Authorizer?
    ) throws(BackendError) {
        defer { updateParkable() }
        if let lock {
            assert(lock.transaction != transaction, "transaction \(transaction) prepared \(path) twice")
            throw .aborted(.concurrentCommit(path))
        }
        if let expectedVersion, expectedVersion != version {
            throw .aborted(.versionChanged(path, read: expectedVersion, current: version))
        }
        var after = fields
        if !writes.isEmpty {
            let now = firestore.env.clock.now
            let backlog = takeRateToken(now: now)
            let faults = firestore.faults
            let abortProbability = min(faults.abortProbabilityMax, faults.abortProbabilityPerExcessWrite * backlog)
            if abortProbability > 0 {
                firestore.ledger.opportunity(.contentionAbort, probability: abortProbability)
                if contentionRandom == nil {
                    contentionRandom = firestore.env.randomStream("firestore.contention/\(path)")
                }
                if contentionRandom!.chance(abortProbability) {
                    rateTokens += 1  // the aborted write does not count against the rate
                    firestore.ledger.observe(.contentionAbort, subject: path.description)
                    throw .aborted(.writeRate(path, perSecond: faults.documentWritesPerSecond))
                }
            }
            for write in writes { after = try write.apply(to: after, path: path, commitTime: now) }
            if let authorize, !authorize(path, fields, after) {
                throw .permissionDenied(operation: ruleOperation(before: fields, after: after).rawValue, path: path.description)
            }
        }
        lock = (transaction, after, !writes.isEmpty)
    }

    /// Phase two: installs what `prepare` computed and releases the lock.
    func commitPrepared(transaction: UInt64) {
        defer { updateParkable() }
        guard let lock, lock.transaction == transaction else {
            preconditionFailure("commit of \(path) by transaction \(transaction) that does not hold its lock")
        }
        if lock.writes { install(lock.pending, now: firestore.env.clock.now) }
        release(transaction: transaction)
    }

    /// Releases the lock if `transaction` holds it (after a failed prepare elsewhere).
    func release(transaction: UInt64) {
        defer { updateParkable() }
        guard lock?.transaction == transaction else { return }
        lock = nil
        let waiters = lockWaiters
        lockWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Consumes one token; returns the backlog (writes above the sustained rate, ≥ 0).
    private func takeRateToken(now: Timestamp) -> Double {
        let faults = firestore.faults
        let elapsedSeconds = Double(now.unixNanoseconds - rateRefillNanoseconds) / 1e9
        if rateRefillNanoseconds == 0 || elapsedSeconds < 0 {
            rateRefillNanoseconds = now.unixNanoseconds
        } else {
            rateTokens = min(faults.documentBurstWrites, rateTokens + elapsedSeconds * faults.documentWritesPerSecond)
            rateRefillNanoseconds = now.unixNanoseconds
        }
        rateTokens -= 1
        return max(0, -rateTokens)
    }

    /// Makes `after` the current state; a write that changes nothing bumps no version and emits
    /// no event (MODEL_RULES §11).
    private func install(_ after: Fields?, now: Timestamp) {
        if after == fields { return }
        let before = snapshot()
        fields = after
        version += 1
        updateTime = now
        let current = snapshot()
        assert(current.version == before.version + 1, "versions must increase by one per commit")
        firestore.didCommit(before: before, after: current)
    }
}
