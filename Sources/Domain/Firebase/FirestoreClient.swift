import Synchronization

/// One signed-in device's view of the backend (the iOS SDK): every call crosses the device's
/// `ClientNetwork` and is checked by the deployed security rules.
public final class FirestoreClient: Sendable {
    /// The signed-in user, nil for a signed-out device.
    public let auth: AuthContext?
    /// The device's connection: latency, faults, online state.
    public let network: ClientNetwork
    let backend: Backend
    private let label: String
    /// Drawn at the first read, so devices that never read their clock cost nothing and are not
    /// counted as the fault's opportunities.
    private let drawnClock = Mutex<DeviceClock?>(nil)
    private let backoffRandom: SharedRandom

    init(auth: AuthContext?, label: String, backend: Backend) {
        self.auth = auth
        self.backend = backend
        self.network = ClientNetwork(label: label, env: backend.env, faults: backend.faults, ledger: backend.faultLedger, outages: backend.outages)
        self.backoffRandom = SharedRandom(backend.env, stream: "firestore.transaction.backoff/\(label)")
        self.label = label
    }

    /// The device's own clock (`Date()` on the device; MODEL_RULES §24), drawn at its first read.
    public var deviceClock: DeviceClock {
        drawnClock.withLock { drawn in
            if let drawn { return drawn }
            let clock = DeviceClock(
                clock: backend.env.clock, faults: backend.faults, random: SharedRandom(backend.env, stream: "device-clock/\(label)"),
                ledger: backend.faultLedger)
            drawn = clock
            return clock
        }
    }

    private var firestore: Firestore { backend.firestore }

    /// The write check this client's rules impose.
    var authorizer: Authorizer {
        let backend = backend
        let rules = backend.rules
        let auth = auth
        let firestore = firestore
        return { path, before, after in
            backend.evaluateRules(RuleRequest(
                auth: auth, operation: ruleOperation(before: before, after: after), path: path,
                resource: before, data: after, lookup: { firestore.liveFields($0) }), rules)
        }
    }

    private func checkRead(_ snapshot: DocumentSnapshot, _ operation: RuleOperation) throws(BackendError) {
        let firestore = firestore
        let request = RuleRequest(
            auth: auth, operation: operation, path: snapshot.path, resource: snapshot.fields, data: nil,
            lookup: { firestore.liveFields($0) })
        if !backend.evaluateRules(request) {
            throw .permissionDenied(operation: operation.rawValue, path: snapshot.path.description)
        }
    }

    /// `getDocument()`.
    public func get(_ path: DocumentPath) async throws(BackendError) -> DocumentSnapshot {
        try await network.roundTrip(.get(path)) { () async throws(BackendError) in
            let snapshot = await firestore.snapshot(path)
            try checkRead(snapshot, .get)
            return snapshot
        }
    }

    /// `setData()`: overwrites an existing document (last write wins).
    @discardableResult
    public func setData(_ path: DocumentPath, _ fields: Fields) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .set(fields))
    }

    /// `setData(merge: true)`.
    @discardableResult
    public func setData(_ path: DocumentPath, merging updates: FieldUpdates) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .merge(updates))
    }

    /// `updateData()`: NOT_FOUND if missing.
    @discardableResult
    public func updateData(_ path: DocumentPath, _ updates: FieldUpdates) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .update(updates))
    }

    /// `delete()`: removes a document, if the rules allow.
    public func delete(_ path: DocumentPath) async throws(BackendError) {
        _ = try await write(path, .delete)
    }

    /// `addDocument()`: a random (seeded) id; two adds for the same slot both succeed.
    @discardableResult
    public func add(_ collection: String, _ fields: Fields) async throws(BackendError) -> DocumentPath {
        let path = DocumentPath(collection, firestore.newDocumentId())
        _ = try await write(path, .set(fields))
        return path
    }

    /// A collection query; PERMISSION_DENIED if the rules refuse `list` on any result.
    public func query(_ collection: String, where predicate: @Sendable (DocumentSnapshot) -> Bool = { _ in true })
        async throws(BackendError) -> [DocumentSnapshot]
    {
        try await network.roundTrip(.query(collection)) { () async throws(BackendError) in
            let results = firestore.query(collection, where: predicate)
            for snapshot in results { try checkRead(snapshot, .list) }
            return results
        }
    }

    /// A client transaction (MODEL_RULES §1–4): optimistic, 5 attempts with backoff, then
    /// ABORTED; errors thrown by `body` itself and PERMISSION_DENIED are not retried.
    public func runTransaction<T>(_ body: (Transaction) async throws -> T) async throws -> T {
        guard network.isOnline else { throw BackendError.unavailable("transactions fail while the device is offline") }
        return try await firestore.runTransaction(
            client: self, maxAttempts: backend.faults.transactionMaxAttempts,
            backoffInitial: backend.faults.transactionBackoffInitial, random: backoffRandom, body)
    }

    /// `addSnapshotListener` on `collection`: the existing documents, then changes as snapshots
    /// (several writes can arrive as one, a document's intermediate states skipped), delayed by
    /// latency and by the connection dropping now and then. A change the rules do not let this
    /// user read ends the listener with PERMISSION_DENIED (rules are not filters), as does access
    /// revoked while listening; `onError` hears of it and no batch follows (MODEL_RULES §18–19).
    public func listen(
        _ collection: String, onError: SnapshotListener.ErrorHandler? = nil, _ handler: @escaping SnapshotListener.Handler
    ) -> SnapshotListener {
        backend.listen(
            collection, label: "\(auth?.uid ?? "anonymous")/\(collection)", connection: connection(.list, document: nil),
            onError: onError, handler)
    }

    /// `addSnapshotListener` on one document: its current state, then its changes, as `listen`
    /// delivers them; a state the rules do not let this user `get` (access revoked while listening,
    /// or from the start) ends it with PERMISSION_DENIED.
    public func listen(
        document path: DocumentPath, onError: SnapshotListener.ErrorHandler? = nil, _ handler: @escaping SnapshotListener.Handler
    ) -> SnapshotListener {
        backend.listen(
            path.collection, label: "\(auth?.uid ?? "anonymous")/\(path)", connection: connection(.get, document: path),
            onError: onError, handler)
    }

    /// A device listener's connection whose changes this user must be allowed to `operation`.
    private func connection(_ operation: RuleOperation, document: DocumentPath?) -> ListenerConnection {
        let backend = backend
        let rules = backend.rules
        let auth = auth
        let firestore = firestore
        return ListenerConnection(faults: backend.faults, ledger: backend.faultLedger, document: document) { change in
            backend.evaluateRules(RuleRequest(
                auth: auth, operation: operation, path: change.path, resource: change.after.fields ?? change.before.fields,
                data: nil, lookup: { firestore.liveFields($0) }), rules)
        }
    }

    /// Calls an HTTPS callable function with this client's auth context.
    public func call(_ name: String, _ data: Fields = [:]) async throws -> Value {
        guard network.isOnline else { throw BackendError.unavailable("device offline during call \(name)") }
        return try await backend.functions.invoke(name, data: data, auth: auth, network: network)
    }

    private func write(_ path: DocumentPath, _ operation: WriteOperation) async throws(BackendError) -> DocumentSnapshot {
        let authorize = authorizer
        return try await network.roundTrip(.write(path)) { () async throws(BackendError) in
            try await firestore.write(path, operation, authorize: authorize)
        }
    }
}
