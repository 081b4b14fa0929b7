import Synchronization

/// A real-time listener on one collection: receives the committed changes in commit order,
/// batched and delayed by `listenerLatency`; the first batch holds the existing documents. The
/// admin feed (`Backend.listen`, what checkers read) receives every change; a device's listener
/// (`FirestoreClient.listen`) receives snapshots as Firestore sends them (`ListenerConnection`)
/// and shows the device's own writes at once, rolled back if the server refuses them
/// (`ListenerView`).
public final class SnapshotListener: Sendable {
    /// Receives each batch of changes, in commit order.
    public typealias Handler = @Sendable (_ changes: [DocumentChange]) async -> Void
    /// Receives each snapshot with its metadata (`FirestoreClient.listen(…includeMetadataChanges:…)`).
    public typealias SnapshotHandler = @Sendable (_ snapshot: ListenerSnapshot) async -> Void
    /// Receives the error that ended the listener (no batch follows it).
    public typealias ErrorHandler = @Sendable (_ error: BackendError) async -> Void

    /// What the listener's owner hears.
    enum Delivery: Sendable {
        /// The changes only; a snapshot without any is not raised.
        case changes(Handler)
        /// Snapshots with metadata: the first always, a metadata-only one if `includeMetadataChanges`.
        case snapshots(SnapshotHandler, includeMetadataChanges: Bool)
    }

    private struct State {
        var queue: [DocumentChange] = []
        var pumping = false
        var removed = false
        var view = ListenerView()
        /// A snapshot is being raised; `toRaise` waits for the raiser, in the order the view changed.
        var raising = false
        var toRaise: [ListenerSnapshot] = []
    }
    private let state = Mutex(State())
    private let delivery: Delivery
    private let env: DomainEnvironment
    private let latency: LatencyModel
    private let random: SharedRandom
    private let tracker: TaskTracker
    private let onRemove: @Sendable (SnapshotListener) -> Void
    private let connection: ListenerConnection?
    private let onError: ErrorHandler?
    private let label: String

    init(label: String, env: DomainEnvironment, latency: LatencyModel, tracker: TaskTracker, connection: ListenerConnection? = nil,
         delivery: Delivery, onError: ErrorHandler? = nil, onRemove: @escaping @Sendable (SnapshotListener) -> Void) {
        self.label = label
        self.connection = connection
        self.onError = onError
        self.delivery = delivery
        self.env = env
        self.latency = latency
        self.random = SharedRandom(env, stream: "listeners.latency/\(label)")
        self.tracker = tracker
        self.onRemove = onRemove
    }

    /// Stops deliveries (pending ones are dropped).
    public func remove() {
        state.withLock { $0.removed = true; $0.queue = [] }
        onRemove(self)
    }

    /// Whether the listener was removed or ended with an error.
    var isRemoved: Bool { state.withLock { $0.removed } }

    func enqueue(_ change: DocumentChange) {
        let startPump = state.withLock { state -> Bool in
            if state.removed { return false }
            state.queue.append(change)
            return Self.claimPump(&state)
        }
        if startPump { tracker.spawn { [self] in await pump() } }
    }

    /// Starts a round with nothing queued, so a snapshot listener raises its first snapshot even
    /// when there is no document to show.
    func raiseInitial() {
        guard case .snapshots = delivery else { return }
        if state.withLock({ !$0.removed && Self.claimPump(&$0) }) { tracker.spawn { [self] in await pump() } }
    }

    private static func claimPump(_ state: inout State) -> Bool {
        if state.pumping { return false }
        state.pumping = true
        return true
    }

    private func pump() async {
        while true {
            try? await env.clock.sleep(for: random.sample(latency))
            if let connection { await disconnect(connection) }
            // The changes queued since the last round; the pump stops after a round with none.
            let (queued, last) = state.withLock { state -> ([DocumentChange], Bool) in
                defer { state.queue = [] }
                let last = state.queue.isEmpty || state.removed
                if last { state.pumping = false }
                return (state.removed ? [] : state.queue, last)
            }
            if let connection {
                guard await receive(queued, connection) else { return }
            } else if !queued.isEmpty, case .changes(let handler) = delivery {
                await handler(queued)
            }
            if last { return }
        }
    }

    /// Raises the server's `queued` changes as one snapshot; false if one of them ended the listener.
    private func receive(_ queued: [DocumentChange], _ connection: ListenerConnection) async -> Bool {
        let batch = ListenerConnection.coalesce(connection.document.map { path in queued.filter { $0.path == path } } ?? queued)
        if let denied = batch.first(where: { !connection.authorize($0) }) {
            await fail(.permissionDenied(operation: "listen", path: denied.path.description))
            return false
        }
        await raise { view in view.receive(batch) }
        return true
    }

    /// The device wrote `operation` to `path`: the listener shows it at once (latency
    /// compensation). Returns the write's id for `acknowledge` or `rollBack`.
    func showLocalWrite(_ path: DocumentPath, _ operation: WriteOperation) async -> Int? {
        var id: Int?
        await raise { view in
            let write = view.write(path, operation)
            id = write.id
            return write.change.map { [$0] } ?? []
        }
        return id
    }

    /// The server committed the device's write `id` as `committed`.
    func acknowledge(_ id: Int, committed: DocumentSnapshot) async {
        await raise { view in view.acknowledge(id, committed: committed).map { [$0] } ?? [] }
    }

    /// The server refused the device's write `id`, or its answer was lost: the listener stops
    /// showing it (`local-write-rollback` when that changes what the device shows).
    func rollBack(_ id: Int) async {
        await raise { [label] view in
            guard let change = view.rollBack(id) else { return [] }
            connection?.ledger.observe(.localWriteRollback, subject: label)
            return [change]
        }
    }

    /// Updates the view with `update` and raises the snapshot it makes. Snapshots reach the owner
    /// one at a time, in the order the view changed: one made while another is being raised (a
    /// handler that writes, whose write shows on this listener) is queued, and the raiser raises it
    /// next, so no caller ever waits for its own handler.
    private func raise(_ update: (inout ListenerView) -> [DocumentChange]) async {
        let first = state.withLock { state -> ListenerSnapshot? in
            guard !state.removed, let snapshot = raised(update(&state.view), &state.view) else { return nil }
            if state.raising {
                state.toRaise.append(snapshot)
                return nil
            }
            state.raising = true
            return snapshot
        }
        guard var snapshot = first else { return }
        while true {
            switch delivery {
            case .changes(let handler): await handler(snapshot.changes)
            case .snapshots(let handler, _): await handler(snapshot)
            }
            guard let next = nextToRaise() else { return }
            snapshot = next
        }
    }

    /// The next queued snapshot, or nil (and no longer raising) when none is left or the listener ended.
    private func nextToRaise() -> ListenerSnapshot? {
        state.withLock { state in
            guard !state.toRaise.isEmpty, !state.removed else {
                state.raising = false
                state.toRaise.removeAll(keepingCapacity: true)
                return nil
            }
            return state.toRaise.removeFirst()
        }
    }

    /// The snapshot `changes` make, or nil if the owner is not to hear of it.
    private func raised(_ changes: [DocumentChange], _ view: inout ListenerView) -> ListenerSnapshot? {
        let metadata = view.metadata
        switch delivery {
        case .changes:
            guard !changes.isEmpty else { return nil }
        case .snapshots(_, let includeMetadataChanges):
            let metadataOnly = includeMetadataChanges && view.lastRaised != metadata
            guard !changes.isEmpty || view.lastRaised == nil || metadataOnly else { return nil }
        }
        view.lastRaised = metadata
        return ListenerSnapshot(changes: changes, metadata: metadata)
    }

    /// A chance that the connection drops before this snapshot: the listener raises that it shows
    /// the device's copy (`isFromCache`), waits the outage out (its queue keeps filling) and
    /// resyncs; the next snapshot is from the server again. Both draws are made every time.
    private func disconnect(_ connection: ListenerConnection) async {
        let probability = connection.disconnectProbability
        guard probability > 0 else { return }
        let drops = random.chance(probability)
        let outage = connection.disconnectMin + random.duration(upTo: connection.disconnectMax - connection.disconnectMin)
        connection.ledger.opportunity(.listenerDisconnect, probability: probability)
        guard drops else { return }
        connection.ledger.observe(.listenerDisconnect, subject: label)
        await raise { view in
            view.isFromCache = true
            return []
        }
        try? await env.clock.sleep(for: outage)
        state.withLock { $0.view.isFromCache = false }
    }

    /// Ends the listener with `error` (PERMISSION_DENIED: a change the rules deny, as when access
    /// is revoked while listening): no batch follows; the error handler hears of it.
    private func fail(_ error: BackendError) async {
        state.withLock { state in
            state.removed = true
            state.queue = []
            state.pumping = false
        }
        onRemove(self)
        await onError?(error)
    }
}
