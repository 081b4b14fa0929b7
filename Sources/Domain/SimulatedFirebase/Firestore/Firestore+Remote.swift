/// The calls of a project on a real server (`Backend.remote`): the same API, answered by the
/// server. No latency model, fault or lock table applies: the server's own do.
extension Firestore {
    /// An admin read, which the API cannot fail: a server that does not answer after three tries
    /// reads as a missing document, noted in the fault ledger (`remote-read-failed`).
    func remoteRead(_ path: DocumentPath, _ remote: any FirestoreRemote) async -> DocumentSnapshot {
        await unfailing(subject: "\(path)", otherwise: DocumentSnapshot(path: path, fields: nil, version: 0, updateTime: env.clock.now)) { () async throws(BackendError) in
            try await remote.get(path, as: .admin, transaction: nil)
        }
    }

    /// An admin query the API cannot fail: as `remoteRead`, an unanswered one reads as empty.
    func remoteQuery(_ query: Query, _ remote: any FirestoreRemote) async -> [DocumentSnapshot] {
        await unfailing(subject: "query \(query.collection)", otherwise: []) { () async throws(BackendError) in
            try await remote.query(query, as: .admin)
        }
    }

    /// `read`'s answer within three tries, else `otherwise`, the last error noted as `remote-read-failed`.
    private func unfailing<T>(subject: String, otherwise: T, _ read: () async throws(BackendError) -> T) async -> T {
        var last: BackendError?
        for _ in 1...3 {
            do throws(BackendError) {
                return try await read()
            } catch {
                last = error
            }
        }
        ledger.note("remote-read-failed", subject: "\(subject): \(last.map { "\($0)" } ?? "")")
        return otherwise
    }

    /// `fetch(_:whereField:isEqualTo:orderedBy:from:through:)` as a server's query: the equality,
    /// the timestamps of `orderField` in the range (only timestamps, as the simulated index keeps
    /// only timestamps; every timestamp an app writes is after 1970), ordered by `orderField`.
    static func rangeQuery(
        _ collection: String, equalField: String?, equalValue: Value?, orderField: String, from lower: Timestamp?, through upper: Timestamp?
    ) -> Query {
        var conjuncts: [QueryFilter] = []
        if let equalField, let equalValue { conjuncts.append(.field(equalField, .equal, equalValue)) }
        conjuncts.append(.field(orderField, .greaterThanOrEqual, .timestamp(lower ?? Timestamp(unixNanoseconds: 0))))
        if let upper { conjuncts.append(.field(orderField, .lessThanOrEqual, .timestamp(upper))) }
        return Query(collection, filter: conjuncts.count == 1 ? conjuncts[0] : .and(conjuncts), orderBy: [Query.Order(orderField)])
    }

    /// One write; the snapshot it leaves is what a `set` or `create` wrote. An admin's update or
    /// merge reads the document back (its result depends on what it met, and functions use it); a
    /// device's does not, as the client SDK's write answers nothing (no app reads it, and a read
    /// after every like would double what the load measures): its snapshot has no fields.
    func remoteWrite(
        _ path: DocumentPath, _ operation: WriteOperation, as caller: RemoteCaller, _ remote: any FirestoreRemote
    ) async throws(BackendError) -> DocumentSnapshot {
        try await remote.commit([(path, operation)], as: caller, transaction: nil, expecting: [:])
        switch operation {
        case .create(let fields), .set(let fields): return DocumentSnapshot(path: path, fields: fields, version: 0, updateTime: env.clock.now)
        case .merge, .update where caller == .admin: return try await remote.get(path, as: caller, transaction: nil)
        default: return DocumentSnapshot(path: path, fields: nil, version: 0, updateTime: env.clock.now)
        }
    }

    /// A transaction on the server, as the caller's SDK runs one. The admin SDK's is pessimistic:
    /// begin, the body's reads inside it (the server locks what they read), its writes committed in
    /// it. A device SDK's is optimistic (MODEL_RULES §1–4): plain reads, then one commit whose
    /// writes each require the version their document was read at. A retryable error (as that SDK
    /// retries) runs the body again after the SDK's backoff, up to `maxAttempts`, then ABORTED.
    func runRemoteTransaction<T>(
        _ remote: any FirestoreRemote, as caller: RemoteCaller, maxAttempts: Int, backoffInitial: Duration, random: SharedRandom,
        _ body: (Transaction) async throws -> T
    ) async throws -> T {
        var backoff = backoffInitial
        let pessimistic = caller == .admin
        for attempt in 1...max(1, maxAttempts) {
            let serverId = pessimistic ? try await remote.beginTransaction(as: caller) : nil
            let transaction = Transaction(
                id: nextTransactionNumber(), firestore: self, client: nil, remote: Transaction.RemoteAttempt(id: serverId, caller: caller))
            do {
                let value = try await body(transaction)
                try await remote.commit(transaction.bufferedWrites, as: caller, transaction: serverId, expecting: pessimistic ? [:] : transaction.readVersions)
                return value
            } catch let error as BackendError where pessimistic ? error.isRetryableInServerTransaction : error.isRetryableInTransaction {
                if let serverId { await remote.rollback(serverId, as: caller) }
                if attempt == maxAttempts {
                    if case .aborted = error { break }
                    throw error
                }
                let jitter = faults.transactionBackoffJitter
                try await env.clock.sleep(for: backoff * (1 - jitter + 2 * jitter * random.unitInterval()))
                backoff = min(backoff * faults.transactionBackoffMultiplier, faults.transactionBackoffMax)
            } catch {
                if let serverId { await remote.rollback(serverId, as: caller) }
                throw error
            }
        }
        throw BackendError.aborted(.contention)
    }
}
