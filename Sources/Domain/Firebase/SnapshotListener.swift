import Synchronization

/// A real-time listener on one collection: receives every committed change in commit order,
/// batched and delayed by `listenerLatency`; the first batch holds the existing documents.
public final class SnapshotListener: Sendable {
    /// Receives each batch of changes, in commit order.
    public typealias Handler = @Sendable (_ changes: [DocumentChange]) async -> Void
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

    init(label: String, env: DomainEnvironment, latency: LatencyModel, tracker: TaskTracker,
         handler: @escaping Handler, onRemove: @escaping @Sendable (SnapshotListener) -> Void) {
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
            let batch = state.withLock { state -> [DocumentChange] in
                defer { state.queue = [] }
                if state.queue.isEmpty || state.removed { state.pumping = false }
                return state.removed ? [] : state.queue
            }
            if batch.isEmpty { return }
            await handler(batch)
        }
    }
}
