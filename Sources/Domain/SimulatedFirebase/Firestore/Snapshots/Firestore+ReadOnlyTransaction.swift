extension Firestore {
    /// A read-only transaction (the admin SDK's `runTransaction(fn, {readOnly: true, readTime})`):
    /// every read in `body` sees the database at one instant (`readTime` if given, else when the
    /// first read reaches the server), takes no lock, waits for none and is never retried.
    /// FAILED_PRECONDITION for a `readTime` more than an hour old, INVALID_ARGUMENT for one in the
    /// future (docs/domain.md, "Read-only transactions").
    public func runReadOnlyTransaction<T>(readTime: Timestamp? = nil, _ body: (ReadOnlyTransaction) async throws -> T) async throws -> T {
        versions.startKeeping(now: env.clock.now)
        return try await body(ReadOnlyTransaction(firestore: self, readTime: readTime))
    }

    /// Keeps replaced versions from now on, so a `readTime` up to an hour back is answered from
    /// the start of a run; without it they are kept from the first read-only transaction on.
    public func keepVersions() { versions.startKeeping(now: env.clock.now) }

    /// The instant a read-only transaction's first read fixes, judged as the server judges `readTime`.
    func readPoint(readTime: Timestamp?) throws(BackendError) -> ReadPoint {
        let now = env.clock.now
        guard let readTime else { return .sequence(lastCommitSequence, at: now) }
        if now < readTime { throw .invalidArgument("The requested 'read_time' cannot be in the future.") }
        // The present instant: commits still to come at this same time must stay out.
        if readTime == now { return .sequence(lastCommitSequence, at: now) }
        try checkWindow(readTime)
        return .time(readTime)
    }

    /// FAILED_PRECONDITION once `instant` is more than the version window old (checked at every
    /// read: a transaction held open past the hour reads nothing the window no longer keeps).
    func checkWindow(_ instant: Timestamp) throws(BackendError) {
        if instant < env.clock.now - VersionHistory.window { throw .failedPrecondition("The requested 'read_time' is too old.") }
    }

    /// `path` as it stood at `point`.
    func snapshot(_ path: DocumentPath, at point: ReadPoint) async throws(BackendError) -> DocumentSnapshot {
        if let snapshot = await actor(path).snapshot(at: point) { return snapshot }
        let since = versions.keepingSince.map { "\($0)" } ?? "never"
        throw .failedPrecondition(
            "\(path) changed after the requested read time, before this simulated database kept versions (since \(since)): "
                + "call keepVersions() during set-up to read that far back")
    }
}
