import Synchronization

/// The registry of one collection: its document actors (created on first use) and an index of
/// the latest committed snapshot of every existing document, for queries, listeners and rules'
/// `get()` lookups.
///
/// The registry is a short lock rather than an actor: finding a document's actor is not a point
/// where Firestore serialises anything, so it should not cost a scheduling point. Writes are
/// serialised by the document actors; the index is updated synchronously inside their commits.
final class CollectionStore: Sendable {
    let path: String
    private unowned let firestore: Firestore
    private struct State {
        var actors: [String: DocumentActor] = [:]
        var live: [String: DocumentSnapshot] = [:]
        var listeners: [SnapshotListener] = []
    }
    private let state = Mutex(State())

    init(path: String, firestore: Firestore) {
        self.path = path
        self.firestore = firestore
    }

    func actor(for id: String) -> DocumentActor {
        state.withLock { state in
            if let existing = state.actors[id] { return existing }
            let created = DocumentActor(path: DocumentPath(path, id), firestore: firestore)
            state.actors[id] = created
            return created
        }
    }

    /// The latest committed fields of document `id`, or nil.
    func liveFields(_ id: String) -> Fields? { state.withLock { $0.live[id]?.fields } }

    /// Existing documents, sorted by id (deterministic whatever the hash seed).
    func documents() -> [DocumentSnapshot] {
        let snapshots = state.withLock { Array($0.live.values) }
        return snapshots.sorted { $0.path.id < $1.path.id }
    }

    var count: Int { state.withLock { $0.live.count } }

    /// Records a commit in the index and returns the listeners to notify (registration order).
    func record(_ after: DocumentSnapshot) -> [SnapshotListener] {
        state.withLock { state in
            if after.exists { state.live[after.path.id] = after } else { state.live[after.path.id] = nil }
            return state.listeners
        }
    }

    /// Adds a listener and returns the documents it starts from, atomically with respect to commits.
    func addListener(_ listener: SnapshotListener) -> [DocumentSnapshot] {
        let snapshots = state.withLock { state -> [DocumentSnapshot] in
            state.listeners.append(listener)
            return Array(state.live.values)
        }
        return snapshots.sorted { $0.path.id < $1.path.id }
    }

    /// Drops the documents, their actors and the listeners (`Firestore.terminate`).
    func removeAll() {
        let dropped = state.withLock { state in
            defer { state = State() }
            return state
        }
        _ = dropped  // released here, outside the lock
    }

    func removeListener(_ listener: SnapshotListener) {
        state.withLock { $0.listeners.removeAll { $0 === listener } }
    }
}
