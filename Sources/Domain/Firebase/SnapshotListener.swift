import Synchronization

/// A real-time listener on one collection: receives the committed changes in commit order,
/// batched and delayed by `listenerLatency`; the first batch holds the existing documents. The
/// admin feed (`Backend.listen`, what checkers read) receives every change; a device's listener
/// (`FirestoreClient.listen`) receives snapshots as Firestore sends them (`ListenerConnection`).
public final class SnapshotListener: Sendable {
    /// Receives each batch of changes, in commit order.
    public typealias Handler = @Sendable (_ changes: [DocumentChange]) async -> Void
    /// Receives the error that ended the listener (no batch follows it).
    public typealias ErrorHandler = @Sendable (_ error: BackendError) async -> Void
    private struct State {
        var queue: [DocumentChange] = []
        var pumping = false
        var removed = false
    }
    private let state = Mutex(State())
    private let handler: Handler
    private let env: DomainEnvironment
    private let latency: LatencyModel
    private let random: SharedRandom
    private let tracker: TaskTracker
    private let onRemove: @Sendable (SnapshotListener) -> Void
    private let connection: ListenerConnection?
    private let onError: ErrorHandler?
    private let label: String

    init(label: String, env: DomainEnvironment, latency: LatencyModel, tracker: TaskTracker, connection: ListenerConnection? = nil,
         handler: @escaping Handler, onError: ErrorHandler? = nil, onRemove: @escaping @Sendable (SnapshotListener) -> Void) {
        self.label = label
        self.connection = connection
        self.onError = onError
        self.handler = handler
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

    func enqueue(_ change: DocumentChange) {
        let startPump = state.withLock { state -> Bool in
            if state.removed { return false }
            state.queue.append(change)
            if state.pumping { return false }
            state.pumping = true
            return true
        }
        if startPump { tracker.spawn { [self] in await pump() } }
    }

    private func pump() async {
        while true {
            try? await env.clock.sleep(for: random.sample(latency))
            if let connection { await disconnect(connection) }
            let queued = state.withLock { state -> [DocumentChange] in
                defer { state.queue = [] }
                if state.queue.isEmpty || state.removed { state.pumping = false }
                return state.removed ? [] : state.queue
            }
            if queued.isEmpty { return }
            guard let connection else {
                await handler(queued)
                continue
            }
            let batch = ListenerConnection.coalesce(connection.document.map { path in queued.filter { $0.path == path } } ?? queued)
            if let denied = batch.first(where: { !connection.authorize($0) }) {
                await fail(.permissionDenied(operation: "listen", path: denied.path.description))
                return
            }
            if !batch.isEmpty { await handler(batch) }
        }
    }

    /// A chance that the connection drops before this snapshot: the listener waits it out (its
    /// queue keeps filling) and resyncs. Both draws are made every time.
    private func disconnect(_ connection: ListenerConnection) async {
        let probability = connection.disconnectProbability
        guard probability > 0 else { return }
        let drops = random.chance(probability)
        let outage = connection.disconnectMin + random.duration(upTo: connection.disconnectMax - connection.disconnectMin)
        connection.ledger.opportunity(.listenerDisconnect, probability: probability)
        guard drops else { return }
        connection.ledger.observe(.listenerDisconnect, subject: label)
        try? await env.clock.sleep(for: outage)
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
