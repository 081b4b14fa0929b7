import Synchronization

/// The simulated Cloud Firestore database, seen through the admin SDK (Cloud Functions):
/// no security rules, no client network. Clients go through `FirestoreClient`.
public final class Firestore: Sendable {
    /// The project's clock, executors and randomness.
    public let env: DomainEnvironment
    /// The project's latencies and fault rates.
    public let faults: BackendFaults
    let tracker: TaskTracker
    let triggers: TriggerDispatcher
    let ledger: FaultLedger
    /// The transactions that hold or may hold document locks (MODEL_RULES §23).
    let transactionLocks: TransactionLocks
    /// The real server every read, write, query and transaction goes to (nil: this simulation).
    let remote: (any FirestoreRemote)?
    /// The collections by path, and in the order they were first used (parking walks that order).
    private let collections = Mutex<(byPath: [String: CollectionStore], ordered: [CollectionStore])>(([:], []))
    private let autoIds: SharedRandom
    private let backoffRandom: SharedRandom
    private let adminLatencyRandom: SharedRandom
    private let adminFailureRandom: SharedRandom
    private let adminAnswerRandom: SharedRandom
    private let transactionCounter = Atomic<UInt64>(0)
    private let commits = Atomic<UInt64>(0)
    /// Numbers every commit at its commit point (a single write at its install, a transaction or
    /// batch once every document is prepared): what a snapshot read compares versions with.
    private let commitSequence = Atomic<UInt64>(0)
    private let deployedIndexes = Mutex(FirestoreIndexes.none)
    /// Replaced versions, for reads at a past instant (kept once a read-only transaction began).
    let versions = VersionHistory()
    /// Keeps each commit whole to readers while its documents install.
    let visibility = CommitVisibility()
    /// Live document actors over every collection, and the count at which idle ones are next
    /// parked (`CollectionStore.parkIdleActors`).
    /// `secondChance`: actors handed out again since the last pass are spared once (off when a
    /// test sets the threshold, to park every idle actor).
    private let actorCensus = Mutex<(live: Int, parkAt: Int, threshold: Int, rebuilt: Int, secondChance: Bool)>((0, 4_096, 4_096, 0, true))

    init(
        env: DomainEnvironment, faults: BackendFaults, tracker: TaskTracker, ledger: FaultLedger, coverage: CoverageLedger = CoverageLedger(),
        remote: (any FirestoreRemote)? = nil
    ) {
        self.remote = remote
        self.ledger = ledger
        self.env = env
        self.faults = faults
        self.tracker = tracker
        self.autoIds = SharedRandom(env, stream: "firestore.autoid")
        self.backoffRandom = SharedRandom(env, stream: "firestore.transaction.backoff.server")
        self.adminLatencyRandom = SharedRandom(env, stream: "firestore.admin.latency")
        self.adminFailureRandom = SharedRandom(env, stream: "firestore.admin.failure")
        self.adminAnswerRandom = SharedRandom(env, stream: "firestore.admin.answer")
        self.triggers = TriggerDispatcher(env: env, faults: faults, tracker: tracker, ledger: ledger, coverage: coverage, remote: remote)
        self.transactionLocks = TransactionLocks(clock: env.clock, faults: faults, ledger: ledger)
    }

    func store(_ collection: String) -> CollectionStore {
        collections.withLock { stores in
            if let existing = stores.byPath[collection] { return existing }
            let created = CollectionStore(path: collection, firestore: self)
            stores.byPath[collection] = created
            stores.ordered.append(created)
            return created
        }
    }

    func actor(_ path: DocumentPath) -> DocumentActor { store(path.collection).actor(for: path.id) }

    /// Counts a new document actor; past the census's mark, parks the idle ones of every
    /// collection. The mark is then twice the live actors left (at least the threshold), so the
    /// scans cost O(1) per created actor. Parking changes no behaviour, only memory.
    func didCreateDocumentActor(rebuilt: Bool) {
        let (due, secondChance) = actorCensus.withLock { census -> (Bool, Bool) in
            census.live += 1
            if rebuilt { census.rebuilt += 1 }
            return (census.live >= census.parkAt, census.secondChance)
        }
        guard due else { return }
        let now = env.clock.now.unixNanoseconds
        let stores = collections.withLock { $0.ordered }
        var parked = 0
        for store in stores { parked += store.parkIdleActors(now: now, secondChance: secondChance) }
        actorCensus.withLock { census in
            census.live -= parked
            census.parkAt = max(census.threshold, 2 * census.live)
        }
    }

    /// Sets the live document actors at which idle ones are first parked (default 4,096; tests
    /// lower it to park all the time and prove that parking changes no trace), and whether actors
    /// handed out again since the last pass are spared once (off unless asked: every idle actor
    /// is parked, which is what those tests want).
    package func setDocumentParkingThreshold(_ threshold: Int, secondChance: Bool = false) {
        precondition(threshold >= 1, "parking threshold must be positive")
        actorCensus.withLock { census in
            census.threshold = threshold
            census.secondChance = secondChance
            census.parkAt = max(threshold, census.live)
        }
    }

    /// Server transaction attempts and client commits in the lock table now (tests: none once idle).
    package var liveTransactionAttempts: Int { transactionLocks.liveCount }

    /// Changes committed so far, over every document (a checker that re-reads state skips a pass
    /// in which nothing was committed).
    public var committedChanges: UInt64 { commits.load(ordering: .relaxed) }

    /// Whether the document is packed in its collection's index, or spilled (tests).
    package func isPacked(_ path: DocumentPath) -> Bool { store(path.collection).isPacked(path.id) }

    /// Whether the document is spilled to `env.coldStorage` (tests).
    package func isSpilled(_ path: DocumentPath) -> Bool { store(path.collection).isSpilled(path.id) }

    /// Bits of the id hash spilled documents are found by (all but tests, which narrow it to
    /// make ids collide).
    private let spillMask = Atomic<UInt64>(.max)
    package var spillHashMask: UInt64 { spillMask.load(ordering: .relaxed) }
    package func setSpillHashMask(_ mask: UInt64) { spillMask.store(mask, ordering: .relaxed) }

    /// Live and parked document actors over every collection, how many parked ones were rebuilt
    /// so far, and how many documents the indexes hold packed (tests, memory reports).
    package var documentActorCounts: (live: Int, parked: Int, rebuilt: Int, packed: Int) {
        let stores = collections.withLock { $0.ordered }
        let rebuilt = actorCensus.withLock { $0.rebuilt }
        return stores.reduce((0, 0, rebuilt, 0)) { total, store in
            let counts = store.actorCounts
            return (total.0 + counts.live, total.1 + counts.parked, total.2, total.3 + counts.packed)
        }
    }

    /// Drops every collection: documents, their actors and listeners (`Backend.terminate`).
    func terminate() {
        let stores = collections.withLock { stores in
            defer { stores = ([:], []) }
            return stores.ordered
        }
        for store in stores { store.removeAll() }
    }

    // MARK: Admin SDK
    //
    // Every admin call pays `faults.adminOperationLatency` before it reaches the document, so a
    // function's read and its later write are apart in virtual time and a client write (or another
    // invocation) can land between them (docs/domain.md, "Backend work takes virtual time").

    /// The latency of one admin-SDK call inside a function, with the SDK's retries of attempts
    /// that failed UNAVAILABLE (MODEL_RULES §22): each failed attempt costs its latency and a
    /// backoff (×1.3 each time, ±50 % jitter). Retried until an attempt succeeds (at most 8
    /// attempts: at the swarm's ceiling rate the eighth fails once in 10^10 calls).
    func adminRoundTrip() async {
        var latency = adminLatencyRandom.sample(faults.adminOperationLatency)
        let probability = faults.adminCallFailureProbability
        if probability > 0 {
            var backoff = faults.adminCallBackoffInitial
            for _ in 1..<8 {
                ledger.opportunity(.adminCallFailure, probability: probability)
                guard adminFailureRandom.chance(probability) else { break }
                ledger.observe(.adminCallFailure, subject: "admin call")
                latency += backoff * (0.5 + adminFailureRandom.unitInterval()) + adminLatencyRandom.sample(faults.adminOperationLatency)
                backoff = backoff * 1.3
            }
        }
        try? await env.clock.sleep(for: latency)
    }

    /// After an admin write or commit made inside a function acted: with
    /// `adminAnswerLostProbability` its answer is lost (MODEL_RULES §22), and the function waits
    /// `adminAnswerLostWait` and hears DEADLINE_EXCEEDED; the effect stays. Set-up and checkers,
    /// outside any invocation, always hear their answer.
    private func answer(_ operation: @autoclosure () -> String) async throws(BackendError) {
        let probability = faults.adminAnswerLostProbability
        guard probability > 0, Invocation.current != nil else { return }
        ledger.opportunity(.adminAnswerLost, probability: probability)
        guard adminAnswerRandom.chance(probability) else { return }
        let subject = operation()
        ledger.observe(.adminAnswerLost, subject: subject)
        try? await env.clock.sleep(for: faults.adminAnswerLostWait)
        throw .deadlineExceeded("the answer to \(subject) was lost")
    }

    /// Reads one document (an admin round trip, then a hop to its actor).
    public func get(_ path: DocumentPath) async -> DocumentSnapshot {
        if let remote { return await remoteRead(path, remote) }
        await adminRoundTrip()
        try? Invocation.admitCurrent()  // a read has no effect to stop; it counts toward a crash
        return await visibleSnapshot(path)
    }

    /// A new transaction number (every attempt has its own).
    func nextTransactionNumber() -> UInt64 { transactionCounter.wrappingAdd(1, ordering: .relaxed).newValue }

    /// A server transaction's read in a pessimistic database: an admin round trip, then the
    /// document under a read lock held until the transaction's attempt ends.
    func lockedGet(_ path: DocumentPath, transaction: UInt64) async throws(BackendError) -> DocumentSnapshot {
        await adminRoundTrip()
        try? Invocation.admitCurrent()  // a read has no effect to stop; it counts toward a crash
        return try await actor(path).lockedRead(transaction: transaction)
    }

    /// The committed document now, without latency: for clients (who pay their own network) and
    /// for checkers that read end state.
    public func snapshot(_ path: DocumentPath) async -> DocumentSnapshot { await visibleSnapshot(path) }

    /// The committed document once no commit installing it is still installing others
    /// (`CommitVisibility`): one hop to its actor, which checks and reads in one step.
    private nonisolated(nonsending) func visibleSnapshot(_ path: DocumentPath) async -> DocumentSnapshot {
        let documentActor = actor(path)
        while true {
            if let snapshot = await documentActor.snapshotIfVisible() { return snapshot }
            await visibility.waitUntilVisible(.document(path))
        }
    }

    /// `query`'s answer once no installing commit writes into `target` (`CommitVisibility`).
    nonisolated(nonsending) func visibleQuery(_ target: CommitVisibility.Target, _ query: () -> [DocumentSnapshot]) async -> [DocumentSnapshot] {
        while true {
            if let answer = visibility.readIfVisible(target, query) { return answer }
            await visibility.waitUntilVisible(target)
        }
    }

    /// Server `create()`: ALREADY_EXISTS if the document exists.
    @discardableResult
    public func create(_ path: DocumentPath, _ fields: Fields) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .create(fields), authorize: nil)
    }

    /// `set()`: overwrites (last write wins).
    @discardableResult
    public func set(_ path: DocumentPath, _ fields: Fields) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .set(fields), authorize: nil)
    }

    /// `set(…, {merge: true})`.
    @discardableResult
    public func merge(_ path: DocumentPath, _ updates: FieldUpdates) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .merge(updates), authorize: nil)
    }

    /// `update()`: NOT_FOUND if the document is missing.
    @discardableResult
    public func update(_ path: DocumentPath, _ updates: FieldUpdates) async throws(BackendError) -> DocumentSnapshot {
        try await write(path, .update(updates), authorize: nil)
    }

    /// Deletes a document (admin; deleting a missing one is a no-op).
    public func delete(_ path: DocumentPath) async throws(BackendError) {
        _ = try await write(path, .delete, authorize: nil)
    }

    /// `add()`: a new document with a random (seeded) 20-character id.
    @discardableResult
    public func add(_ collection: String, _ fields: Fields) async throws(BackendError) -> DocumentPath {
        let path = DocumentPath(collection, autoIds.autoId())
        _ = try await write(path, .create(fields), authorize: nil)
        return path
    }

    /// A new random id in the style of `add()`, without writing.
    public func newDocumentId() -> String { autoIds.autoId() }

    /// A query from a function (the admin SDK's `get()` on a query): an admin round trip, then the
    /// documents of `collection` that satisfy `predicate`, sorted by id, as they stand when the
    /// answer leaves. Queries in functions take time, so a write can land between a function's
    /// query and what it does with the results.
    public func fetch(_ collection: String, where predicate: (DocumentSnapshot) -> Bool = { _ in true }) async -> [DocumentSnapshot] {
        if let remote { return await remoteQuery(Query(collection), remote).filter(predicate) }
        await adminRoundTrip()
        try? Invocation.admitCurrent()  // a read has no effect to stop; it counts toward a crash
        return await visibleQuery(.collection(collection)) { query(collection, where: predicate) }
    }

    /// `fetch` on a single-field index (`query(_:whereField:isEqualTo:)`).
    public func fetch(_ collection: String, whereField field: String, isEqualTo value: Value) async -> [DocumentSnapshot] {
        if let remote { return await remoteQuery(Query(collection, filter: .field(field, .equal, value)), remote) }
        await adminRoundTrip()
        try? Invocation.admitCurrent()
        return await visibleQuery(.collection(collection)) { query(collection, whereField: field, isEqualTo: value) }
    }

    /// `fetch` on a composite index (`query(_:whereField:isEqualTo:orderedBy:from:through:)`):
    /// FAILED_PRECONDITION when it needs an index not deployed (an equality with the order on
    /// another field needs `equalField`, `orderField` ascending).
    public func fetch(
        _ collection: String, whereField equalField: String? = nil, isEqualTo equalValue: Value? = nil,
        orderedBy orderField: String, from lower: Timestamp? = nil, through upper: Timestamp? = nil
    ) async throws(BackendError) -> [DocumentSnapshot] {
        if let remote {
            return try await remote.query(
                Self.rangeQuery(collection, equalField: equalField, equalValue: equalValue, orderField: orderField, from: lower, through: upper),
                as: .admin)
        }
        await adminRoundTrip()
        try? Invocation.admitCurrent()
        let indexes = deployedIndexes.withLock { $0 }
        if !indexes.servesEquality(equalValue == nil ? nil : equalField, thenOrder: orderField, in: collection) {
            // The error names the index as the general judgement does.
            var equivalent = Query(collection, orderBy: [Query.Order(orderField)])
            if let equalField, let equalValue { equivalent.filter = .field(equalField, .equal, equalValue) }
            try indexes.check(equivalent, project: Self.project)
        }
        return await visibleQuery(.collection(collection)) {
            query(collection, whereField: equalField, isEqualTo: equalValue, orderedBy: orderField, from: lower, through: upper)
        }
    }

    /// Existing documents of `collection` that satisfy `predicate`, sorted by id, at once: for
    /// checkers, set-up and the client SDK (which pays its own network); functions `fetch`.
    public func query(_ collection: String, where predicate: (DocumentSnapshot) -> Bool = { _ in true }) -> [DocumentSnapshot] {
        store(collection).documents().filter(predicate)
    }

    /// Existing documents of `collection` whose `field` equals `value`, sorted by id: the same as
    /// `query(collection) { $0[field] == value }`, served from a single-field index.
    public func query(_ collection: String, whereField field: String, isEqualTo value: Value) -> [DocumentSnapshot] {
        store(collection).documents(whereField: field, isEqualTo: value)
    }

    /// Existing documents of `collection` whose timestamp field `orderField` lies in
    /// `lower...upper` (a missing bound is open) and, if `equalField` is given, whose `equalField`
    /// equals `equalValue`; ordered by `orderField`, then id. Documents without a timestamp in
    /// `orderField` are not in it. Served from a composite index (built on first use, then kept
    /// on commit), as Firestore serves `where status == "scheduled" and scheduledFor <= now
    /// order by scheduledFor`: the cost is the documents returned, not the collection.
    public func query(
        _ collection: String, whereField equalField: String? = nil, isEqualTo equalValue: Value? = nil,
        orderedBy orderField: String, from lower: Timestamp? = nil, through upper: Timestamp? = nil
    ) -> [DocumentSnapshot] {
        let definition = OrderedIndex.Definition(equalField: equalField, equalValue: equalField == nil ? nil : equalValue, orderField: orderField)
        return store(collection).documents(definition, from: lower, through: upper)
    }

    /// The answer to `query` as it stands now (no round trip: checkers, set-up and the client SDK,
    /// which pays its own network), by Firestore's semantics (`Query.evaluate`); a query Firestore
    /// refuses is INVALID_ARGUMENT. A collection-group query reads every collection whose last
    /// segment is the query's collection id.
    public func query(_ query: Query) throws(BackendError) -> [DocumentSnapshot] {
        try answer(query, judgingIndexes: false)
    }

    /// `query` validated once (INVALID_ARGUMENT), then, when `judgingIndexes` (a request the server
    /// serves: a client's or a function's), FAILED_PRECONDITION when it needs an index not
    /// deployed, then answered.
    func answer(_ query: Query, judgingIndexes: Bool) throws(BackendError) -> [DocumentSnapshot] {
        if let problem = query.validationError { throw .invalidArgument(problem) }
        if judgingIndexes { try deployedIndexes.withLock { $0 }.check(query, project: Self.project) }
        let stores: [CollectionStore]
        if query.allDescendants {
            stores = collections.withLock { $0.ordered }.filter { $0.path == query.collection || $0.path.hasSuffix("/" + query.collection) }
        } else {
            stores = [store(query.collection)]
        }
        return query.evaluate(stores.flatMap { $0.documents() })
    }

    /// A query from a function (the admin SDK's `get()` on a `Query`): an admin round trip, then
    /// the answer as it stands when it leaves; INVALID_ARGUMENT for a query Firestore refuses,
    /// FAILED_PRECONDITION when it needs an index not deployed (`Backend.setIndexes`).
    public func fetch(_ query: Query) async throws(BackendError) -> [DocumentSnapshot] {
        if let remote { return try await remote.query(query, as: .admin) }
        await adminRoundTrip()
        try? Invocation.admitCurrent()
        return try await visibleAnswer(query, judgingIndexes: true)
    }

    /// `answer` once no installing commit writes into the collections `query` reads.
    nonisolated(nonsending) func visibleAnswer(_ query: Query, judgingIndexes: Bool) async throws(BackendError) -> [DocumentSnapshot] {
        let target: CommitVisibility.Target = query.allDescendants ? .collectionGroup(query.collection) : .collection(query.collection)
        while true {
            let visible = visibility.readIfVisible(target) { () -> Result<[DocumentSnapshot], BackendError> in
                do throws(BackendError) { return .success(try answer(query, judgingIndexes: judgingIndexes)) } catch { return .failure(error) }
            }
            if let visible { return try visible.get() }
            await visibility.waitUntilVisible(target)
        }
    }

    /// Replaces the deployed indexes.
    func setIndexes(_ indexes: FirestoreIndexes) { deployedIndexes.withLock { $0 = indexes } }

    /// The project id errors name.
    static let project = "rehearsal"

    /// Starts an audit feed of the documents created in `collection` from now on, for checkers
    /// that follow a collection by keeping a count instead of re-reading it (`insertedIds`). Not
    /// a Firestore API; nothing is kept for collections nobody follows.
    public func followInsertions(_ collection: String) { store(collection).followInsertions() }

    /// The ids of the documents created in `collection` (absent, then written) since
    /// `followInsertions`, in commit order, from the `position`-th creation on.
    public func insertedIds(_ collection: String, from position: Int) -> [String] {
        store(collection).insertedIds(from: position)
    }

    /// The latest committed fields of a document, without a hop (what rules' `get()` sees).
    public func liveFields(_ path: DocumentPath) -> Fields? { store(path.collection).liveFields(path.id) }

    /// A batched write (the admin SDK's `batch().commit()`): every write applies atomically or none
    /// does, in one attempt (a batch is never retried: an `ALREADY_EXISTS` or `NOT_FOUND` is the
    /// answer). In a pessimistic database it waits for the locks server transactions hold.
    public func commitBatch(_ writes: [(DocumentPath, WriteOperation)]) async throws(BackendError) {
        if let remote { return try await remote.commit(writes, as: .admin, transaction: nil, expecting: [:]) }
        let transaction = Transaction(id: transactionCounter.wrappingAdd(1, ordering: .relaxed).newValue, firestore: self, client: nil)
        for (path, operation) in writes { transaction.buffer(path, operation) }
        await adminRoundTrip()
        try Invocation.admitCurrent()
        try await commit(transaction, authorize: nil)
        try await answer("commit of a batch of \(writes.count)")
    }

    /// A server transaction (MODEL_RULES §5, §23): in a pessimistic database (the default) its
    /// reads lock the documents until it ends, so contention shows as lock waits and, between two
    /// transactions, as the younger one aborted and retried; 5 attempts, then ABORTED.
    public func runTransaction<T>(_ body: (Transaction) async throws -> T) async throws -> T {
        if let remote {
            return try await runRemoteTransaction(
                remote, as: .admin, maxAttempts: faults.serverTransactionMaxAttempts,
                backoffInitial: faults.serverTransactionBackoffInitial, random: backoffRandom, body)
        }
        return try await runTransaction(
            client: nil, maxAttempts: faults.serverTransactionMaxAttempts,
            backoffInitial: faults.serverTransactionBackoffInitial, random: backoffRandom, body)
    }

    // MARK: Core

    func write(_ path: DocumentPath, _ operation: WriteOperation, authorize: Authorizer?) async throws(BackendError) -> DocumentSnapshot {
        if let remote { return try await remoteWrite(path, operation, as: .admin, remote) }
        // Clients reach here through their network (and an authorizer); the admin SDK pays its own hop.
        guard authorize == nil else { return try await actor(path).write(operation, authorize: authorize) }
        await adminRoundTrip()
        try Invocation.admitCurrent()
        let snapshot = try await actor(path).write(operation, authorize: nil)
        try await answer("\(operation.name) \(path)")
        return snapshot
    }

    func runTransaction<T>(
        client: FirestoreClient?, maxAttempts: Int, backoffInitial: Duration, random: SharedRandom,
        _ body: (Transaction) async throws -> T
    ) async throws -> T {
        precondition(maxAttempts >= 1, "a transaction needs at least one attempt")
        let locking = client == nil && faults.serverTransactionConcurrency == .pessimistic
        var backoff = backoffInitial
        var priority: UInt64?
        for attempt in 1...maxAttempts {
            let id = transactionCounter.wrappingAdd(1, ordering: .relaxed).newValue
            let transaction = Transaction(id: id, firestore: self, client: client, locking: locking)
            if locking {
                // Wound-wait age: a retried transaction keeps its first attempt's, so it grows
                // older than every newcomer and cannot starve.
                let age = priority ?? id
                priority = age
                transactionLocks.begin(id, priority: age, locking: true)
            }
            do {
                let value = try await body(transaction)
                if let client {
                    try await client.network.roundTrip(.commit) { () async throws(BackendError) in
                        try await self.commit(transaction, authorize: client.authorizer(writes: transaction.writeCount))
                    }
                } else {
                    await adminRoundTrip()
                    try Invocation.admitCurrent()
                    try await commit(transaction, authorize: nil)
                    if locking { transactionLocks.end(id) }
                    try await answer("commit of transaction \(id)")
                    return value
                }
                if locking { transactionLocks.end(id) }
                return value
            } catch let error as BackendError where client == nil ? error.isRetryableInServerTransaction : error.isRetryableInTransaction {
                if locking { await endAttempt(transaction) }
                // The SDKs give up with the last attempt's error: a precondition the client SDK
                // retried (ALREADY_EXISTS, FAILED_PRECONDITION) is answered as such, contention as ABORTED.
                if attempt == maxAttempts {
                    if case .aborted = error { break }
                    throw error
                }
                let jitter = faults.transactionBackoffJitter
                let factor = 1 - jitter + 2 * jitter * random.unitInterval()
                try await env.clock.sleep(for: backoff * factor)
                backoff = min(backoff * faults.transactionBackoffMultiplier, faults.transactionBackoffMax)
            } catch {
                if locking { await endAttempt(transaction) }
                throw error
            }
        }
        throw BackendError.aborted(.contention)
    }

    /// A locking attempt that failed: releases every lock it holds and leaves the table.
    private func endAttempt(_ transaction: Transaction) async {
        for document in transaction.documents { await actor(document.path).release(transaction: transaction.id) }
        transactionLocks.end(transaction.id)
    }

    /// Two-phase commit over the documents a transaction read or wrote, in path order. A client
    /// commit (or a server one in an optimistic database) is entered in the lock table for its
    /// duration, as the youngest: it waits for server transactions' locks and may be wounded.
    func commit(_ transaction: Transaction, authorize: Authorizer?) async throws(BackendError) {
        let locks = transactionLocks
        if !transaction.locking { locks.begin(transaction.id, priority: TransactionLocks.youngest, locking: false) }
        defer { if !transaction.locking { locks.end(transaction.id) } }
        // Arguments first, for every write (as the server does), then preconditions document by document.
        for document in transaction.documents {
            for write in document.writes { try write.validateArguments(at: document.path, oneOfSeveral: document.writes.count > 1) }
        }
        // Each path once (the transaction keeps them unique), in path order: the lock order.
        let documents = transaction.documents.sorted { $0.path < $1.path }
        var prepared: [DocumentActor] = []
        prepared.reserveCapacity(documents.count)
        do {
            for document in documents {
                let documentActor = actor(document.path)
                try await documentActor.prepare(
                    transaction: transaction.id, expectedVersion: document.readVersion,
                    writes: document.writes, authorize: authorize)
                prepared.append(documentActor)
            }
            try locks.beginCommit(transaction.id)
        } catch {
            // A locking transaction's read locks on the documents not prepared yet are released
            // with the rest of its attempt (`endAttempt`).
            // Judged before the locks go, so no commit lands between the failure and its answer.
            let answer = error.isPrecondition ? firstFailedPrecondition(transaction) ?? error : error
            for documentActor in prepared { await documentActor.release(transaction: transaction.id) }
            if error.isPrecondition { try judgeLimitsIgnoringPreconditions(transaction) }
            throw answer
        }
        assert(prepared.count == documents.count, "every document must be prepared before any commits")
        // Decided: readers of what it writes wait until every document is installed.
        visibility.begin(transaction.id, installing: documents)
        defer { visibility.end(transaction.id) }
        // One sequence number and one commit time for every document of the commit.
        let sequence = nextCommitSequence()
        let commitTime = env.clock.now
        for documentActor in prepared { await documentActor.commitPrepared(transaction: transaction.id, sequence: sequence, time: commitTime) }
    }

    /// The precondition the server reports for a commit that failed one: the first failing in the
    /// request's order (the documents are prepared in path order, the lock order), judged on the
    /// committed documents, document by document in the order of their first writes (writes to
    /// one document interleaved with another's are the emulator's `precondition-after-write`
    /// refusal, not modelled).
    private func firstFailedPrecondition(_ transaction: Transaction) -> BackendError? {
        let now = env.clock.now
        for document in transaction.documents.sorted(by: { $0.firstWrite < $1.firstWrite }) where !document.writes.isEmpty {
            var after = liveFields(document.path)
            for write in document.writes {
                do {
                    after = try write.apply(to: after, path: document.path, commitTime: now)
                } catch {
                    if error.isPrecondition { return error }
                    break
                }
            }
        }
        return nil
    }

    /// INVALID_ARGUMENT when a document the commit would leave, its preconditions ignored, has a
    /// name or a nesting Firestore refuses: the emulator judges those before any precondition.
    private func judgeLimitsIgnoringPreconditions(_ transaction: Transaction) throws(BackendError) {
        let now = env.clock.now
        for document in transaction.documents.sorted(by: { $0.path < $1.path }) where !document.writes.isEmpty {
            let after = WriteOperation.ignoringPreconditions(document.writes, on: liveFields(document.path), path: document.path, commitTime: now)
            try WriteLimits.check(after ?? [:])
        }
    }

    /// The next commit's sequence number (see `commitSequence`).
    func nextCommitSequence() -> UInt64 { commitSequence.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue }

    /// The last commit sequence number handed out: a snapshot taken now sees every commit up to it.
    var lastCommitSequence: UInt64 { commitSequence.load(ordering: .acquiring) }

    /// Called by a document actor inside its commit: updates the index, then hands the change
    /// to triggers and listeners (which deliver asynchronously).
    func didCommit(before: DocumentSnapshot, after: DocumentSnapshot) {
        commits.wrappingAdd(1, ordering: .relaxed)
        let listeners = store(after.path.collection).record(after)
        for listener in listeners { listener.enqueue(DocumentChange(before: before, after: after)) }
        triggers.dispatch(before: before, after: after)
    }
}
