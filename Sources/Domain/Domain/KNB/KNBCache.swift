import SimulatedFirebase

/// The device-side state the KNB `FirestoreManager` keeps from its real-time listeners on
/// honors, social posts and seat reservations (latest snapshot per document id).
package actor KNBCache: DomainActor {
    package nonisolated let executor: any SerialExecutor
    package private(set) var honors: [String: Fields] = [:]
    package private(set) var posts: [String: Fields] = [:]
    package private(set) var seats: [String: Fields] = [:]
    /// Number of change batches applied (for tests and reports).
    package private(set) var batchCount = 0

    init(env: DomainEnvironment, label: String) {
        executor = env.makeExecutor(label: "knb-cache/\(label)")
    }

    func apply(_ changes: [DocumentChange]) {
        batchCount += 1
        for change in changes {
            let id = change.path.id
            switch change.path.collection {
            case "honors": honors[id] = change.after.fields
            case "social_posts": posts[id] = change.after.fields
            case "seat_reservations": seats[id] = change.after.fields
            default: assertionFailure("KNB cache got a change of \(change.path)")
            }
        }
    }
}

extension KNBClient {
    /// Starts the manager's listeners on honors, social_posts and seat_reservations; returns the
    /// cache they fill and the registrations (call `remove()` to stop).
    package func startListening() -> (cache: KNBCache, listeners: [SnapshotListener]) {
        let cache = KNBCache(env: app.backend.env, label: email)
        let listeners = ["honors", "social_posts", "seat_reservations"].map { collection in
            firestore.listen(collection) { changes in await cache.apply(changes) }
        }
        return (cache, listeners)
    }
}
