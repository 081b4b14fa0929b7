import Synchronization

/// The registry of one collection: its document actors (created on first use) and an index of
/// the latest committed snapshot of every existing document, for queries, listeners and rules'
/// `get()` lookups.
///
/// The registry is a short lock rather than an actor: finding a document's actor is not a point
/// where Firestore serialises anything, so it should not cost a scheduling point. Writes are
/// serialised by the document actors; the index is updated synchronously inside their commits.
///
/// Queries are served the way Firestore serves them, from indexes kept on commit rather than by
/// scanning: the ids in order (re-sorted only after an insert or delete, not on update), and the
/// single-field and composite indexes a query first asks for (`EqualityIndex`, `OrderedIndex`), built from the live
/// documents then and updated by every commit after.
final class CollectionStore: Sendable {
    let path: String
    private unowned let firestore: Firestore
    private struct State {
        var actors: [String: DocumentActor] = [:]
        /// Executors (or their tokens) of parked document actors whose index entry is not packed
        /// (see `parkIdleActors`), by id; a packed entry keeps its executor itself.
        var parked: [String: PackedDocument.ParkedExecutor] = [:]
        /// Every existing document but the spilled ones: decoded while its actor lives, packed
        /// once it is parked (when there is no cold storage to spill it to).
        var live: [String: IndexedDocument] = [:]
        /// Documents spilled to cold storage: the record's handle by the id's hash
        /// (`SpilledDocument.hash`; 16 bytes a document, no id kept in memory), and by id those
        /// whose hash a spilled document had already.
        var spilled: [UInt64: UInt64] = [:]
        var spilledCollisions: [String: UInt64] = [:]
        /// The ids of every existing document (`live` and spilled), sorted; nil after an insert
        /// or delete until the next full query.
        var sortedIds: [String]? = []
        var listeners: [SnapshotListener] = []
        /// Every id that went from absent to existing since `followInsertions`, in commit order;
        /// nil (not kept) until a checker asks for it.
        var inserted: [String]?
        /// Indexes in the order queries first asked for them (a handful per collection).
        var equalityIndexes: [EqualityIndex] = []
        var orderedIndexes: [OrderedIndex] = []
    }
    private let state = Mutex(State())

    init(path: String, firestore: Firestore) {
        self.path = path
        self.firestore = firestore
    }

    func actor(for id: String) -> DocumentActor {
        let (actor, created, rebuilt) = state.withLock { state -> (DocumentActor, Bool, Bool) in
            if let existing = state.actors[id] {
                existing.reused.store(true, ordering: .relaxed)
                return (existing, false, false)
            }
            let created: DocumentActor
            let current = unpack(id, in: &state)  // a packed entry's executor moves to `parked`
            let executor: (any SerialExecutor)? = switch state.parked.removeValue(forKey: id) {
            case nil: nil
            case .kept(let executor)?: executor
            case .token(let token)?: firestore.env.reviveExecutor(token)
            }
            if let executor {
                created = DocumentActor(path: DocumentPath(path, id), firestore: firestore, executor: executor, current: current)
            } else {
                created = DocumentActor(path: DocumentPath(path, id), firestore: firestore)
            }
            state.actors[id] = created
            return (created, true, executor != nil)
        }
        if created { firestore.didCreateDocumentActor(rebuilt: rebuilt) }  // outside the lock: it may park every collection
        return actor
    }

    /// Drops every actor nobody holds (no caller, no queued job: the registry has the only
    /// reference) that its own `parkableFrom` allows at `now` and, with `secondChance`, that was
    /// not handed out again since the last pass (`DocumentActor.reused`), keeping its executor;
    /// returns how many. A later `actor(for:)` rebuilds it from the index on the same executor, so the
    /// scheduler and the trace see the same actor. An actor with its executor is most of a small
    /// document's memory: without parking, memory grows with every document ever touched (a load
    /// test's notifications) instead of with the ones in use (docs/performance.md).
    func parkIdleActors(now: Int64, secondChance: Bool) -> Int {
        state.withLock { state in
            var parked = 0
            // Those the clock and their state allow and that were not handed out again since the
            // last pass (those lose that mark and wait for the next); only they are taken out of
            // the dictionary.
            let due = state.actors.compactMap { entry -> String? in
                guard entry.value.parkableFrom.load(ordering: .acquiring) <= now else { return nil }
                return secondChance && entry.value.reused.exchange(false, ordering: .relaxed) ? nil : entry.key
            }
            for id in due {
                // Out of the dictionary, so the registry's reference is this local one alone.
                var actor = state.actors.removeValue(forKey: id)!
                // Read again once nobody else holds it: on the real runtime a holder may have
                // changed its state (a rate token) between the first read and its release.
                if isKnownUniquelyReferenced(&actor), actor.parkableFrom.load(ordering: .acquiring) <= now {
                    if !pack(id, executor: actor.executor, in: &state) { state.parked[id] = parking(actor.executor) }
                    parked += 1
                } else {
                    state.actors[id] = actor
                }
            }
            return parked
        }
    }

    /// Packs document `id`'s index entry with the executor of its parked actor, and spills it to
    /// cold storage if there is one and the executor gave a token; false (nothing changed) if the
    /// document does not exist, was unpacked before or is too large.
    private func pack(_ id: String, executor: any SerialExecutor, in state: inout State) -> Bool {
        guard case .decoded(let entry)? = state.live[id], entry.packable, let fields = entry.snapshot.fields else { return false }
        let snapshot = entry.snapshot
        let packed: Void? = EncodedFields.withPacked(fields, limit: IndexedDocument.packingLimit) { bytes in
            let parked = parking(executor)
            // Only ASCII ids: the spilled table finds a document by its id's bytes, while `live`
            // (a `String` dictionary) would also find it under a canonically equal spelling.
            if case .token(let token) = parked, let cold = firestore.env.coldStorage, id.utf8.allSatisfy({ $0 < 0x80 }),
               let record = SpilledDocument.record(id: id, version: snapshot.version, updateTime: snapshot.updateTime, token: token, fields: bytes),
               let offset = record.withUnsafeBytes({ cold.append($0) }),
               let handle = SpilledDocument.handle(offset: offset, count: record.count) {
                state.live[id] = nil
                let hash = spillHash(id)
                if state.spilled[hash] == nil {
                    state.spilled[hash] = handle
                } else {
                    state.spilledCollisions[id] = handle
                }
                return
            }
            state.live[id] = .packed(PackedDocument.make(fields: bytes, version: snapshot.version, updateTime: snapshot.updateTime, executor: parked))
        }
        guard packed != nil else {
            // Too large: not tried again at every parking (an honor's `bids` only grow).
            state.live[id] = .decoded(snapshot, packable: false)
            return false
        }
        return true
    }

    /// The hash spilled documents are found by (narrowed by `Firestore.spillHashMask` in tests,
    /// to make ids collide).
    private func spillHash(_ id: String) -> UInt64 { SpilledDocument.hash(id) & firestore.spillHashMask }

    /// Spilled document `id` (one read of its record), or nil if it is not spilled.
    private func spilledDocument(id: String, in state: State) -> SpilledDocument? {
        if !state.spilledCollisions.isEmpty, let handle = state.spilledCollisions[id] { return spilledDocument(at: handle) }
        guard let handle = state.spilled[spillHash(id)] else { return nil }
        let document = spilledDocument(at: handle)
        return document.id == id ? document : nil
    }

    /// The spilled record `handle` names.
    private func spilledDocument(at handle: UInt64) -> SpilledDocument {
        guard let cold = firestore.env.coldStorage else { preconditionFailure("a spilled document without cold storage") }
        return SpilledDocument(handle: handle, in: cold)
    }

    /// Handles of every spilled document, in the order they were spilled (file order).
    private func spilledHandles(in state: State) -> [UInt64] {
        (Array(state.spilled.values) + state.spilledCollisions.values).sorted()
    }

    /// What a parked actor keeps of `executor`: the token its source gives (the simulator's: the
    /// ordinal, so the executor object is released) or the executor itself. Revived only when the
    /// actor is rebuilt (`actor(for:)`, inside the run), never by a read.
    private func parking(_ executor: any SerialExecutor) -> PackedDocument.ParkedExecutor {
        firestore.env.parkingToken(for: executor).map { .token($0) } ?? .kept(executor)
    }

    /// Whether document `id` is packed in the index (tests).
    package func isPacked(_ id: String) -> Bool {
        state.withLock { state in state.live[id]?.isPacked ?? (spilledDocument(id: id, in: state) != nil) }
    }

    /// Whether document `id` is spilled to cold storage (tests).
    package func isSpilled(_ id: String) -> Bool { state.withLock { spilledDocument(id: id, in: $0) != nil } }

    /// Document `id`'s snapshot, nil if it does not exist. A packed entry is unpacked for good (a
    /// point read or a rebuilt actor: the document is in use) and its executor moves to `parked`.
    private func unpack(_ id: String, in state: inout State) -> DocumentSnapshot? {
        guard let indexed = state.live[id] else {
            guard let document = spilledDocument(id: id, in: state) else { return nil }
            if state.spilledCollisions.removeValue(forKey: id) == nil { state.spilled[spillHash(id)] = nil }
            let snapshot = document.snapshot(collection: path)
            state.live[id] = .decoded(snapshot, packable: false)
            state.parked[id] = .token(document.token)
            return snapshot
        }
        let snapshot = indexed.snapshot(collection: path, id: id)
        if case .packed(let packed) = indexed {
            state.live[id] = .decoded(snapshot, packable: false)
            state.parked[id] = packed.executor
        }
        return snapshot
    }

    /// The snapshot of existing document `id`, decoded for the caller if packed (it stays packed:
    /// a scan should not unpack a whole collection).
    private func indexedSnapshot(_ id: String, in state: State) -> DocumentSnapshot {
        if let indexed = state.live[id] { return indexed.snapshot(collection: path, id: id) }
        guard let document = spilledDocument(id: id, in: state) else { preconditionFailure("\(path)/\(id) is not in the index") }
        return document.snapshot(collection: path)
    }

    /// Every existing document's snapshot, in no particular order (see `indexedSnapshot`).
    private func indexedSnapshots(in state: State) -> [DocumentSnapshot] {
        state.live.map { $0.value.snapshot(collection: self.path, id: $0.key) }
            + spilledHandles(in: state).map { spilledDocument(at: $0).snapshot(collection: path) }
    }

    /// Live (unparked) document actors, parked ones (packed included) and packed ones, for tests.
    package var actorCounts: (live: Int, parked: Int, packed: Int) {
        state.withLock { state in
            let packed = state.live.values.count { $0.isPacked } + state.spilled.count + state.spilledCollisions.count
            return (state.actors.count, state.parked.count + packed, packed)
        }
    }

    /// The latest committed fields of document `id`, or nil.
    func liveFields(_ id: String) -> Fields? { state.withLock { unpack(id, in: &$0)?.fields } }

    /// Existing documents, sorted by id (deterministic whatever the hash seed).
    func documents() -> [DocumentSnapshot] {
        state.withLock { state in
            let ids: [String]
            if let sorted = state.sortedIds {
                ids = sorted
            } else {
                let cold = spilledHandles(in: state).map { SpilledDocument.id(handle: $0, in: firestore.env.coldStorage!) }
                ids = (Array(state.live.keys) + cold).sorted()
                state.sortedIds = ids
            }
            return ids.map { indexedSnapshot($0, in: state) }
        }
    }

    /// Existing documents whose `field` equals `value`, sorted by id (a single-field index).
    func documents(whereField field: String, isEqualTo value: Value) -> [DocumentSnapshot] {
        state.withLock { state in
            let position = state.equalityIndexes.firstIndex { $0.field == field } ?? {
                state.equalityIndexes.append(EqualityIndex(field: field, documents: indexedSnapshots(in: state)))
                return state.equalityIndexes.count - 1
            }()
            let ids = state.equalityIndexes[position].ids(for: value)
            return ids.map { indexedSnapshot($0, in: state) }
        }
    }

    /// Existing documents matching `definition` (an optional equality, then a timestamp field)
    /// whose ordered field lies in `lower...upper`, ordered by that field then id (a composite index).
    func documents(_ definition: OrderedIndex.Definition, from lower: Timestamp?, through upper: Timestamp?) -> [DocumentSnapshot] {
        state.withLock { state in
            let position = state.orderedIndexes.firstIndex { $0.definition == definition } ?? {
                state.orderedIndexes.append(OrderedIndex(definition, documents: indexedSnapshots(in: state)))
                return state.orderedIndexes.count - 1
            }()
            let ids = state.orderedIndexes[position].ids(from: lower, through: upper)
            return ids.map { indexedSnapshot($0, in: state) }
        }
    }

    var count: Int { state.withLock { $0.live.count + $0.spilled.count + $0.spilledCollisions.count } }

    /// Starts keeping the ids of documents created from now on (idempotent).
    func followInsertions() { state.withLock { if $0.inserted == nil { $0.inserted = [] } } }

    /// The ids of documents created since `followInsertions`, from the `position`-th on, in commit order.
    func insertedIds(from position: Int) -> [String] {
        state.withLock { state in
            guard let inserted = state.inserted else { preconditionFailure("insertedIds(\(path)) before followInsertions") }
            return position < inserted.count ? Array(inserted[max(0, position)...]) : []
        }
    }

    /// Records a commit in the index and returns the listeners to notify (registration order).
    func record(_ after: DocumentSnapshot) -> [SnapshotListener] {
        state.withLock { state in
            let id = after.path.id
            // Decoded already: only a document's own (live) actor commits it.
            let indexed = state.live[id]
            assert(indexed?.isPacked != true, "\(path)/\(id) committed while packed: only a live actor commits")
            assert(indexed != nil || spilledDocument(id: id, in: state) == nil, "\(path)/\(id) committed while spilled: only a live actor commits")
            let before = indexed?.snapshot(collection: path, id: id)
            if after.exists {
                let packable = indexed?.isPackable ?? true
                state.live[id] = .decoded(after, packable: packable)
            } else {
                state.live[id] = nil
            }
            if (before == nil) == after.exists { state.sortedIds = nil }  // inserted or deleted
            if before == nil, after.exists { state.inserted?.append(id) }
            let old = before?.fields, new = after.fields
            for index in state.equalityIndexes.indices { state.equalityIndexes[index].update(id: id, from: old, to: new) }
            for index in state.orderedIndexes.indices { state.orderedIndexes[index].update(id: id, from: old, to: new) }
            return state.listeners
        }
    }

    /// Adds a listener and returns the documents it starts from, atomically with respect to commits.
    func addListener(_ listener: SnapshotListener) -> [DocumentSnapshot] {
        let snapshots = state.withLock { state -> [DocumentSnapshot] in
            state.listeners.append(listener)
            return indexedSnapshots(in: state)
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
