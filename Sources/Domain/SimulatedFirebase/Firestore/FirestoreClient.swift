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
    /// Drawn at the first call that sends an App Check token, likewise.
    private let drawnAppCheck = Mutex<Bool?>(nil)
    private let backoffRandom: SharedRandom
    /// A listener of this device and what it covers (held weakly: the collection holds it while
    /// it listens, and its owner's handler may hold this client).
    private struct LocalListener: Sendable {
        let collection: String
        let document: DocumentPath?
        weak var listener: SnapshotListener?
    }
    /// This device's listeners, which show its writes before the server answers.
    private let showsWrites = Mutex<[LocalListener]>([])

    init(auth: AuthContext?, label: String, backend: Backend) {
        self.auth = auth
        self.backend = backend
        self.network = backend.network(of: label)
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

    /// Whether this device holds a valid App Check token (MODEL_RULES §32): its attestation
    /// provider fails for good on `appCheckAttestationFailureProbability` of devices
    /// (`app-check-attestation-failed`), drawn once, at the first call that sends one. The SDK
    /// refreshes a working device's token (it expires) with the calls it makes.
    public var hasAppCheckToken: Bool {
        drawnAppCheck.withLock { drawn in
            if let drawn { return drawn }
            let probability = backend.faults.appCheckAttestationFailureProbability
            backend.faultLedger.opportunity(.appCheckAttestationFailed, probability: probability)
            let fails = SharedRandom(backend.env, stream: "app-check/\(label)").chance(probability)
            if fails { backend.faultLedger.observe(.appCheckAttestationFailed, subject: label) }
            drawn = !fails
            return !fails
        }
    }

    private var firestore: Firestore { backend.firestore }

    /// The write check this client's rules impose on a commit of `writes` writes (each write's
    /// rules have their own `RuleAccessBudget`; several writes also share one).
    func authorizer(writes: Int) -> Authorizer {
        let backend = backend
        let rules = backend.rules
        let auth = auth
        let commit = writes > 1 ? RuleAccessBudget(limit: RuleAccessBudget.multiDocument, firestore: firestore) : nil
        return { path, before, after in
            backend.evaluateRules(limit: RuleAccessBudget.singleDocument, within: commit, rules) { budget in
                RuleRequest(
                    auth: auth, operation: ruleOperation(before: before, after: after), path: path,
                    resource: before, data: after, lookup: { budget.read($0) })
            }
        }
    }

    private func checkRead(_ snapshot: DocumentSnapshot, _ operation: RuleOperation) throws(BackendError) {
        let allowed = backend.evaluateRules(limit: RuleAccessBudget.singleDocument) { budget in
            RuleRequest(auth: auth, operation: operation, path: snapshot.path, resource: snapshot.fields, data: nil, lookup: { budget.read($0) })
        }
        if !allowed {
            throw .permissionDenied(operation: operation.rawValue, path: snapshot.path.description)
        }
    }

    /// Who this device is to a real server.
    private var caller: RemoteCaller { auth.map { .user($0) } ?? .signedOut }

    /// `getDocument()`.
    public func get(_ path: DocumentPath) async throws(BackendError) -> DocumentSnapshot {
        if let remote = backend.remote { return try await network.roundTrip(.get(path)) { () async throws(BackendError) in try await remote.get(path, as: caller, transaction: nil) } }
        return try await network.roundTrip(.get(path)) { () async throws(BackendError) in
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

    /// Every document of `collection`, filtered on the device by `predicate` (the server sees a
    /// query with no filter): PERMISSION_DENIED unless the rules allow `list` on the whole
    /// collection (rules are not filters).
    public func query(_ collection: String, where predicate: @Sendable (DocumentSnapshot) -> Bool = { _ in true })
        async throws(BackendError) -> [DocumentSnapshot]
    {
        if let remote = backend.remote {
            return try await network.roundTrip(.query(collection)) { () async throws(BackendError) in try await remote.query(Query(collection), as: caller) }.filter(predicate)
        }
        return try await network.roundTrip(.query(collection)) { () async throws(BackendError) in
            try checkList(collection, constraints: [:])
            return await firestore.visibleQuery(.collection(collection)) { firestore.query(collection, where: predicate) }
        }
    }

    /// A query the server answers (`Query`): PERMISSION_DENIED unless the rules allow `list` on
    /// every case of the query's constraints (`QueryFilter.ruleCases`), whatever the documents
    /// hold; INVALID_ARGUMENT for a query Firestore refuses; FAILED_PRECONDITION when it needs an
    /// index not deployed (`Backend.setIndexes`).
    public func query(_ query: Query) async throws(BackendError) -> [DocumentSnapshot] {
        if let remote = backend.remote { return try await network.roundTrip(.query(query.collection)) { () async throws(BackendError) in try await remote.query(query, as: caller) } }
        return try await network.roundTrip(.query(query.collection)) { () async throws(BackendError) in
            for constraints in query.filter?.ruleCases ?? [[:]] { try checkList(query.collection, constraints: constraints) }
            return try await firestore.visibleAnswer(query, judgingIndexes: true)
        }
    }

    private func checkList(_ collection: String, constraints: Fields) throws(BackendError) {
        let allowed = backend.evaluateRules(limit: RuleAccessBudget.multiDocument) { budget in
            RuleRequest.list(auth: auth, collection: collection, constraints: constraints, lookup: { budget.read($0) })
        }
        if !allowed {
            throw .permissionDenied(operation: RuleOperation.list.rawValue, path: collection)
        }
    }

    /// A client transaction (MODEL_RULES §1–4): optimistic, 5 attempts with backoff, then
    /// ABORTED; errors thrown by `body` itself and PERMISSION_DENIED are not retried.
    public func runTransaction<T>(_ body: (Transaction) async throws -> T) async throws -> T {
        guard network.isOnline else { throw BackendError.unavailable("transactions fail while the device is offline") }
        if let remote = backend.remote {
            return try await firestore.runRemoteTransaction(
                remote, as: caller, maxAttempts: backend.faults.transactionMaxAttempts,
                backoffInitial: backend.faults.transactionBackoffInitial, random: backoffRandom, body)
        }
        return try await firestore.runTransaction(
            client: self, maxAttempts: backend.faults.transactionMaxAttempts,
            backoffInitial: backend.faults.transactionBackoffInitial, random: backoffRandom, body)
    }

    /// `addSnapshotListener` on `collection`: the existing documents, then changes as snapshots
    /// (several writes can arrive as one, a document's intermediate states skipped), delayed by
    /// latency and by the connection dropping now and then. A change the rules do not let this
    /// user read ends the listener with PERMISSION_DENIED (rules are not filters), as does access
    /// revoked while listening; `onError` hears of it and no batch follows (MODEL_RULES §18–19).
    /// This device's own writes show at once and go if the server refuses them.
    public func listen(
        _ collection: String, onError: SnapshotListener.ErrorHandler? = nil, _ handler: @escaping SnapshotListener.Handler
    ) -> SnapshotListener {
        listen(collection, document: nil, onError: onError, .changes(handler))
    }

    /// `addSnapshotListener(includeMetadataChanges:)` on `collection`: as `listen(_:onError:_:)`,
    /// each snapshot with its metadata (`isFromCache` while the connection is down,
    /// `hasPendingWrites` while this device's writes await the server); the first snapshot is
    /// raised even if empty, and with `includeMetadataChanges` so is one that changes metadata only.
    public func listen(
        _ collection: String, includeMetadataChanges: Bool, onError: SnapshotListener.ErrorHandler? = nil,
        _ handler: @escaping SnapshotListener.SnapshotHandler
    ) -> SnapshotListener {
        listen(collection, document: nil, onError: onError, .snapshots(handler, includeMetadataChanges: includeMetadataChanges))
    }

    /// `addSnapshotListener` on one document: its current state, then its changes, as `listen`
    /// delivers them; a state the rules do not let this user `get` (access revoked while listening,
    /// or from the start) ends it with PERMISSION_DENIED.
    public func listen(
        document path: DocumentPath, onError: SnapshotListener.ErrorHandler? = nil, _ handler: @escaping SnapshotListener.Handler
    ) -> SnapshotListener {
        listen(path.collection, document: path, onError: onError, .changes(handler))
    }

    /// `addSnapshotListener(includeMetadataChanges:)` on one document, as `listen(document:onError:_:)`
    /// with metadata; a first snapshot without changes means the document is not there (or, with
    /// `isFromCache`, not in the device's copy).
    public func listen(
        document path: DocumentPath, includeMetadataChanges: Bool, onError: SnapshotListener.ErrorHandler? = nil,
        _ handler: @escaping SnapshotListener.SnapshotHandler
    ) -> SnapshotListener {
        listen(path.collection, document: path, onError: onError, .snapshots(handler, includeMetadataChanges: includeMetadataChanges))
    }

    private func listen(
        _ collection: String, document: DocumentPath?, onError: SnapshotListener.ErrorHandler?, _ delivery: SnapshotListener.Delivery
    ) -> SnapshotListener {
        precondition(backend.remote == nil, "device listeners are not available on a real server yet")
        let label = "\(auth?.uid ?? "anonymous")/\(document?.description ?? collection)"
        let listener = backend.listen(
            collection, label: label, connection: connection(document == nil ? .list : .get, document: document),
            onError: onError, delivery)
        showsWrites.withLock { listeners in
            listeners.removeAll { $0.listener?.isRemoved ?? true }
            listeners.append(LocalListener(collection: collection, document: document, listener: listener))
        }
        return listener
    }

    /// A device listener's connection whose changes this user must be allowed to `operation`.
    private func connection(_ operation: RuleOperation, document: DocumentPath?) -> ListenerConnection {
        let backend = backend
        let rules = backend.rules
        let auth = auth
        return ListenerConnection(faults: backend.faults, ledger: backend.faultLedger, document: document) { change in
            backend.evaluateRules(limit: RuleAccessBudget.multiDocument, rules) { budget in
                RuleRequest(
                    auth: auth, operation: operation, path: change.path, resource: change.after.fields ?? change.before.fields,
                    data: nil, lookup: { budget.read($0) })
            }
        }
    }

    /// Calls an HTTPS callable function with this client's auth context.
    public func call(_ name: String, _ data: Fields = [:]) async throws -> Value {
        guard network.isOnline else { throw BackendError.unavailable("device offline during call \(name)") }
        return try await backend.functions.invoke(name, data: data, auth: auth, network: network)
    }

    /// Writes through the network; the device's listeners on `path` show the write at once and
    /// settle it when the answer comes (latency compensation, MODEL_RULES §19).
    private func write(_ path: DocumentPath, _ operation: WriteOperation) async throws(BackendError) -> DocumentSnapshot {
        if let remote = backend.remote {
            return try await network.roundTrip(.write(path)) { () async throws(BackendError) in try await firestore.remoteWrite(path, operation, as: caller, remote) }
        }
        let authorize = authorizer(writes: 1)
        let covering = listeners(covering: path)
        let shown = covering.isEmpty ? [] : await show(path, operation, on: covering)
        do throws(BackendError) {
            let committed = try await network.roundTrip(.write(path)) { () async throws(BackendError) in
                try await firestore.write(path, operation, authorize: authorize)
            }
            for (listener, id) in shown { await listener.acknowledge(id, committed: committed) }
            return committed
        } catch {
            for (listener, id) in shown { await listener.rollBack(id) }
            throw error
        }
    }

    /// This device's open listeners that cover `path`.
    private func listeners(covering path: DocumentPath) -> [SnapshotListener] {
        showsWrites.withLock { listeners in
            listeners.compactMap { $0.collection == path.collection && ($0.document == nil || $0.document == path) ? $0.listener : nil }
        }
    }

    /// Shows a write on `listeners` at once; returns each one's id for it.
    private func show(_ path: DocumentPath, _ operation: WriteOperation, on listeners: [SnapshotListener]) async -> [(SnapshotListener, Int)] {
        var shown: [(SnapshotListener, Int)] = []
        for listener in listeners {
            if let id = await listener.showLocalWrite(path, operation) { shown.append((listener, id)) }
        }
        return shown
    }
}
