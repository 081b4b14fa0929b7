import Synchronization

/// The unit Firestore serialises writes on: one document, its version, and the locks
/// transactions hold on it.
///
/// A transaction commit is two-phase: `prepare` on every involved document (in path order)
/// validates the read version, applies the writes to a pending copy, checks the rules and takes
/// the commit lock; `commitPrepared` installs the pending copy. A server transaction in a
/// pessimistic database (MODEL_RULES §23) also holds a read lock on each document it read, from
/// the read until its attempt ends. Conflicts go through `TransactionLocks`: an older server
/// transaction wounds a younger holder, everything else waits (until the holder releases or
/// expires; a scheduled wake-up covers the expiry), so no cycle of waits can form. A client
/// commit that meets another client commit's lock aborts at once, as the optimistic SDK does.
/// Plain writes wait for every lock, so they never slip between prepare and commit nor change a
/// document a server transaction has read.
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
    /// Server transactions holding a read lock (pessimistic mode), in the order they took it.
    private var readers: [UInt64] = []
    private var lockWaiters: [CheckedContinuation<Void, Never>] = []
    /// Bumped by every change to `lock` or `readers` and by every wake-up: a waiter parks only if
    /// nothing changed since it looked.
    private var lockEpoch: UInt64 = 0
    /// When the scheduled wake-up of lock waiters fires (Unix nanoseconds; `Int64.max`: none).
    private var wakeAt = Int64.max
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
        guard lock == nil, readers.isEmpty, lockWaiters.isEmpty, wakeAt == .max, contentionRandom == nil, fields != nil || version == 0 else {
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

    /// The committed document, or nil while a commit installing it is still installing others
    /// (`CommitVisibility`): the check and the read are one step on this actor, where that
    /// commit installs this document, so a commit that starts after the check has not changed it.
    func snapshotIfVisible() -> DocumentSnapshot? {
        firestore.visibility.isBlocked(.document(path)) ? nil : snapshot()
    }

    /// A single write outside any transaction. Returns the snapshot after it.
    func write(_ operation: WriteOperation, authorize: Authorizer?) async throws(BackendError) -> DocumentSnapshot {
        defer { updateParkable() }
        try operation.validateArguments(at: path)
        let backlog = takeRateToken(now: firestore.env.clock.now)
        if backlog > 0 { try await throttle(backlog: backlog, admin: authorize == nil) }
        var waited = false
        while let holder = lock?.transaction ?? readers.first {
            try await settle(holder, requester: nil, waited: &waited)
        }
        let now = firestore.env.clock.now
        let after: Fields?
        do {
            after = try operation.apply(to: fields, path: path, commitTime: now)
        } catch {
            // The document's names and nesting are judged before the precondition.
            try WriteLimits.check(WriteOperation.ignoringPreconditions([operation], on: fields, path: path, commitTime: now) ?? [:])
            throw error
        }
        if let authorize, !authorize(path, fields, after) {
            throw .permissionDenied(operation: ruleOperation(before: fields, after: after).rawValue, path: path.description)
        }
        try checkLimits(after)
        install(after, now: now)
        return snapshot()
    }

    /// A plain write above the document's sustained rate (MODEL_RULES §6, §25): it queues behind
    /// the writes ahead of it (`backlog` / rate, at most `documentWriteQueueMax`: `write-rate-delay`),
    /// and an admin write aborts with the transactions' probability (`contention-abort`); a
    /// client's write is retried by its SDK, so it is only late.
    private func throttle(backlog: Double, admin: Bool) async throws(BackendError) {
        let faults = firestore.faults
        if admin {
            let abortProbability = min(faults.abortProbabilityMax, faults.abortProbabilityPerExcessWrite * backlog)
            if drawContentionAbort(abortProbability) { throw .aborted(.writeRate(path, perSecond: faults.documentWritesPerSecond)) }
        }
        let delay = min(Duration.seconds(backlog / faults.documentWritesPerSecond), faults.documentWriteQueueMax)
        guard delay > .zero else { return }
        firestore.ledger.observe(.writeRateDelay, subject: path.description)
        try? await firestore.env.clock.sleep(for: delay)
    }

    /// One chance of a write-rate abort with `probability` (counted in the ledger); on an abort the
    /// write gives its token back (it does not count against the rate).
    private func drawContentionAbort(_ probability: Double) -> Bool {
        guard probability > 0 else { return false }
        firestore.ledger.opportunity(.contentionAbort, probability: probability)
        if contentionRandom == nil {
            contentionRandom = firestore.env.randomStream("firestore.contention/\(path)")
        }
        guard contentionRandom!.chance(probability) else { return false }
        rateTokens += 1
        firestore.ledger.observe(.contentionAbort, subject: path.description)
        return true
    }

    /// INVALID_ARGUMENT when `after` would be larger than a document may be (MODEL_RULES §25), or
    /// has a field name or a nesting Firestore refuses (`WriteLimits`). The emulator judges the
    /// document a commit leaves, not each write: a later write of the commit may replace a field
    /// an earlier one named.
    private func checkLimits(_ after: Fields?) throws(BackendError) {
        guard let after else { return }
        try WriteLimits.check(after)
        let limit = firestore.faults.documentMaxBytes
        let size = DocumentSize.of(after, at: path, limit: limit)
        guard size > limit else { return }
        firestore.ledger.observe(.documentTooLarge, subject: path.description)
        throw .invalidArgument("\(path) would be \(size) bytes or more, past the \(limit) bytes a document may hold")
    }

    /// The document as it stood at `point` (a read-only transaction's read): no lock taken and none
    /// waited for, except a commit already decided and still installing its documents, so a
    /// snapshot never shows part of a commit. Nil when the version at `point` was not kept.
    func snapshot(at point: ReadPoint) async -> DocumentSnapshot? {
        defer { updateParkable() }
        while let lock, lock.writes, firestore.transactionLocks.isCommitting(lock.transaction) {
            await waitForLocks(until: .max)
        }
        return firestore.versions.version(of: snapshot(), at: point)
    }

    /// A server transaction's read in a pessimistic database: takes a read lock (waiting while a
    /// commit lock is held, or wounding a younger holder) and returns the document; ABORTED if the
    /// transaction was wounded or has expired.
    func lockedRead(transaction: UInt64) async throws(BackendError) -> DocumentSnapshot {
        defer { updateParkable() }
        var waited = false
        while true {
            try firestore.transactionLocks.touch(transaction)
            guard let holder = lock?.transaction, holder != transaction else { break }
            try await settle(holder, requester: transaction, waited: &waited)
        }
        if !readers.contains(transaction) {
            readers.append(transaction)
            lockEpoch &+= 1
        }
        return snapshot()
    }

    /// Phase one of a transaction commit; see the type's comment.
    func prepare(
        transaction: UInt64, expectedVersion: UInt64?, writes: [WriteOperation], authorize: Authorizer?
    ) async throws(BackendError) {
        defer { updateParkable() }
        let locks = firestore.transactionLocks
        var waited = false
        while true {
            try locks.touch(transaction)
            guard let holder = otherHolder(than: transaction) else { break }
            if let lock, lock.transaction == holder, locks.isClientCommit(holder), locks.isClientCommit(transaction) {
                throw .aborted(.concurrentCommit(path))  // optimistic against optimistic: abort at once
            }
            try await settle(holder, requester: transaction, waited: &waited)
        }
        assert(lock == nil, "transaction \(transaction) prepared \(path) while another holds its commit lock")
        if let expectedVersion, expectedVersion != version {
            throw .aborted(.versionChanged(path, read: expectedVersion, current: version))
        }
        var after = fields
        if !writes.isEmpty {
            let now = firestore.env.clock.now
            let backlog = takeRateToken(now: now)
            let faults = firestore.faults
            let abortProbability = min(faults.abortProbabilityMax, faults.abortProbabilityPerExcessWrite * backlog)
            if drawContentionAbort(abortProbability) { throw .aborted(.writeRate(path, perSecond: faults.documentWritesPerSecond)) }
            for write in writes { after = try write.apply(to: after, path: path, commitTime: now) }
            if let authorize, !authorize(path, fields, after) {
                throw .permissionDenied(operation: ruleOperation(before: fields, after: after).rawValue, path: path.description)
            }
            try checkLimits(after)
        }
        readers.removeAll { $0 == transaction }
        lock = (transaction, after, !writes.isEmpty)
        lockEpoch &+= 1
    }

    /// Phase two: installs what `prepare` computed and releases the lock.
    func commitPrepared(transaction: UInt64, sequence: UInt64, time: Timestamp) {
        defer { updateParkable() }
        guard let lock, lock.transaction == transaction else {
            preconditionFailure("commit of \(path) by transaction \(transaction) that does not hold its lock")
        }
        if lock.writes { install(lock.pending, now: time, sequence: sequence) }
        drop(transaction)
    }

    /// Releases every lock `transaction` holds here (its commit lock, its read lock), if any.
    func release(transaction: UInt64) {
        defer { updateParkable() }
        drop(transaction)
    }

    /// Removes `holder`'s locks and wakes the waiters (they look again).
    private func drop(_ holder: UInt64) {
        var changed = false
        if lock?.transaction == holder {
            lock = nil
            changed = true
        }
        if let index = readers.firstIndex(of: holder) {
            readers.remove(at: index)
            changed = true
        }
        if changed { wakeWaiters() }
    }

    /// A holder of a lock here other than `transaction` that conflicts with its commit: the commit
    /// lock's holder, else a reader.
    private func otherHolder(than transaction: UInt64) -> UInt64? {
        if let holder = lock?.transaction {
            assert(holder != transaction, "transaction \(transaction) prepared \(path) twice")
            return holder
        }
        return readers.first { $0 != transaction }
    }

    /// One step past `holder`'s lock for `requester` (nil: a write outside any transaction):
    /// drops a lock that no longer counts (or that the older requester just wounded), or waits for
    /// the holder to release or expire. Counts the operation's first wait for a server
    /// transaction's lock as a lock wait (a client commit's is over within the commit).
    private func settle(_ holder: UInt64, requester: UInt64?, waited: inout Bool) async throws(BackendError) {
        switch firestore.transactionLocks.resolve(requester: requester, holder: holder, path: path) {
        case .drop:
            drop(holder)
        case .wait(let until, let serverLock):
            if !waited && serverLock {
                waited = true
                firestore.ledger.observe(.lockWait, subject: path.description)
            }
            await waitForLocks(until: until)
        }
    }

    /// Parks until the locks here change or `deadline` (Unix nanoseconds; `Int64.max`: no
    /// expiry to wait for) passes. Re-checked where
    /// it parks: in release builds the continuation's body was seen to run after other jobs of
    /// this actor, one of them the release it waited for, so a waiter appended then was never woken
    /// (heartbeat-timeline, 5,000 users, seed 1; docs/architecture.md, "Parking a continuation").
    private func waitForLocks(until deadline: Int64) async {
        // A holder waited for has not expired yet: a wake-up now would find it as it is, forever.
        assert(deadline > firestore.env.clock.nowUnixNanoseconds, "a lock wait must end after now")
        if deadline < wakeAt { scheduleWake(at: deadline) }
        let epoch = lockEpoch
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            if lockEpoch != epoch { waiter.resume() } else { lockWaiters.append(waiter) }
        }
    }

    /// Wakes the waiters at `deadline`, when a holder they wait for expires.
    private func scheduleWake(at deadline: Int64) {
        wakeAt = deadline
        let clock = firestore.env.clock
        firestore.tracker.spawn { [self] in
            try? await clock.sleep(until: Timestamp(unixNanoseconds: deadline))
            await expiryWake(scheduledAt: deadline)
        }
    }

    /// The wake-up scheduled for `deadline` fired.
    private func expiryWake(scheduledAt deadline: Int64) {
        defer { updateParkable() }
        if wakeAt == deadline { wakeAt = .max }
        wakeWaiters()
    }

    /// Resumes every waiter; each looks at the locks again.
    private func wakeWaiters() {
        lockEpoch &+= 1
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
    private func install(_ after: Fields?, now: Timestamp, sequence: UInt64? = nil) {
        if after == fields { return }
        let before = snapshot()
        firestore.versions.record(before: before, sequence: sequence ?? firestore.nextCommitSequence(), commitTime: now)
        fields = after
        version += 1
        updateTime = now
        let current = snapshot()
        assert(current.version == before.version + 1, "versions must increase by one per commit")
        firestore.didCommit(before: before, after: current)
    }
}
