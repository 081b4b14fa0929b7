// How an app uses the simulated Firebase backend (everything runs on `env`'s clock/executors):
//
//     let backend = Backend(env: env, faults: .default)            // or a swarmed BackendFaults
//     backend.setRules(myRules)                                      // SecurityRules, per collection
//     backend.functions.onUpdate("honors", name: "onOutbid") { event in   // trigger: before/after
//         let old = event.before["currentWinner"], new = event.after["currentWinner"]
//         try await backend.firestore.create(DocumentPath("marks", event.eventId), ["at": .int(0)])
//     }
//     backend.functions.schedule("sync", every: .seconds(1800)) { run in /* run.scheduledTime */ }
//     backend.functions.callable("ping") { request in .string(request.auth?.uid ?? "anon") }
//     await backend.scheduler.start(until: end)                       // or functions.runScheduled("sync", at: t)
//     let alice = backend.client(auth: AuthContext(uid: "alice"), label: "alice")
//     try await alice.runTransaction { tx in                          // optimistic, 5 attempts, backoff
//         let honor = try await tx.get(DocumentPath("honors", "h1"))
//         tx.update(honor.path, ["currentBid": .set(.double(10))])
//     }
//     _ = try await alice.call("ping"); await backend.waitUntilIdle(); backend.outbox.records

import Synchronization

/// The simulated Firebase project: Firestore, Cloud Functions, Cloud Scheduler, Cloud Storage, FCM, SendGrid
/// and the outbox, all driven by one `DomainEnvironment` and one `BackendFaults`.
public final class Backend: Sendable {
    /// The clock, executors and randomness every part of the project uses.
    public let env: DomainEnvironment
    /// The latencies and fault rates of this run.
    public let faults: BackendFaults
    /// The project's background work (trigger deliveries, listener pumps), for `waitUntilIdle`.
    public let tracker: TaskTracker
    /// The admin SDK view (Cloud Functions): no rules, no client network.
    public let firestore: Firestore
    /// The budgets rules' `get()` calls draw on, reused across evaluations.
    let ruleBudgets: RuleAccessBudget.Pool
    /// Cloud Functions: triggers, callables and scheduled jobs.
    public let functions: Functions
    /// Cloud Scheduler: ticks of the scheduled jobs, with jitter and duplicates.
    public let scheduler: CloudScheduler
    /// FCM: push tokens and sends.
    public let messaging: Messaging
    /// SendGrid: emails, with rate limits and time-outs.
    public let email: EmailService
    /// Cloud Storage: the default bucket, its objects and its Storage rules.
    public let storage: CloudStorage
    /// Every push and email that went out, in order (what checkers read).
    public let outbox: Outbox
    /// What faults had the chance to happen, were expected and happened (see `FaultLedger`).
    public let faultLedger: FaultLedger
    /// Which declared functions, triggers, scheduled jobs and rules ran, how often (see `CoverageLedger`).
    public let coverage: CoverageLedger
    /// The run's provider outages (`BackendFaults.outages`); checks read their windows.
    public let outages: Outages
    /// The real Firestore this project's Firestore calls go to (nil: the simulated one).
    public let remote: (any FirestoreRemote)?
    private let deployedRules = Mutex(SecurityRules())
    /// Each device's connection, by label: one per device however many clients an app makes for
    /// it, so its requests draw from one stream in turn and it is offline for all of them.
    private let networks = Mutex<[String: ClientNetwork]>([:])

    /// A project with no rules deployed, on `env`, with `faults`; its outbox keeps `outbox`
    /// (every record unless a run no checker reads, such as a load test, asks for counts). With
    /// `remote`, Firestore is that real server and its triggers arrive from it
    /// (`deliverRemoteEvent`); Functions, FCM, SendGrid and Storage stay simulated on `env`.
    public init(
        env: DomainEnvironment, faults: BackendFaults = .default, outbox retention: Outbox.Retention = .records,
        remote: (any FirestoreRemote)? = nil
    ) {
        self.env = env
        self.faults = faults
        self.remote = remote
        let tracker = TaskTracker(taskExecutor: env.taskExecutor)
        self.tracker = tracker
        let ledger = FaultLedger(clock: env.clock)
        self.faultLedger = ledger
        let outages = Outages(faults.outages, env: env, ledger: ledger)
        self.outages = outages
        let coverage = CoverageLedger()
        self.coverage = coverage
        let firestore = Firestore(env: env, faults: faults, tracker: tracker, ledger: ledger, coverage: coverage, remote: remote)
        self.firestore = firestore
        self.ruleBudgets = RuleAccessBudget.Pool(firestore: firestore)
        let functions = Functions(env: env, dispatcher: firestore.triggers, coverage: coverage)
        self.functions = functions
        self.storage = CloudStorage(env: env, coverage: coverage, firestore: firestore)
        self.scheduler = CloudScheduler(env: env, faults: faults, functions: functions, tracker: tracker, ledger: ledger, coverage: coverage)
        let outbox = Outbox(retention: retention)
        self.outbox = outbox
        self.messaging = Messaging(env: env, faults: faults, outbox: outbox, ledger: ledger, outages: outages)
        self.email = EmailService(env: env, faults: faults, outbox: outbox, ledger: ledger, outages: outages)
    }

    /// Deploys security rules for client requests (replacing earlier ones); `source` is the
    /// same rules as the app's rules file, which a real server (`remote`) enforces instead (a
    /// design whose rules have no file cannot run on one: its requests fail, saying so).
    public func setRules(_ rules: SecurityRules, source: String? = nil) {
        deployedRules.withLock { $0 = rules }
        for pattern in rules.patterns { coverage.declare(.rule, pattern) }
        remote?.deployRules(source)
    }

    /// An event a real server (`remote`) delivered to the trigger `trigger`: the document before
    /// and after the change. Handed to the trigger's handler with its retries, instance limits
    /// and coverage, as a simulated commit's event is; an unknown trigger is ignored.
    public func deliverRemoteEvent(trigger: String, before: DocumentSnapshot, after: DocumentSnapshot) {
        firestore.triggers.deliverRemote(trigger: trigger, before: before, after: after)
    }

    var rules: SecurityRules { deployedRules.withLock { $0 } }

    /// Deploys indexes (replacing earlier ones; `FirestoreIndexes.none` until then, as a new
    /// project has): a query needing one not deployed fails FAILED_PRECONDITION.
    public func setIndexes(_ indexes: FirestoreIndexes) { firestore.setIndexes(indexes) }

    /// Evaluates the deployed rules for the client request `build` makes (its `lookup` reads
    /// through the budget it is given: `limit` documents, and `commit`'s) at the server's time
    /// (`request.time`), and counts the evaluation (coverage); denied when its `get()` calls went
    /// past a budget.
    func evaluateRules(
        limit: Int, within commit: RuleAccessBudget? = nil, _ rules: SecurityRules? = nil, _ build: (RuleAccessBudget) -> RuleRequest
    ) -> Bool {
        let budget = ruleBudgets.take(limit: limit, within: commit)
        defer { ruleBudgets.give(budget) }
        var request = build(budget)
        request.time = env.clock.now
        let decision = (rules ?? self.rules).decide(request)
        let exceeded = budget.exceeded
        if exceeded { faultLedger.observe(.rulesAccessLimit, subject: "\(request.operation.rawValue) \(request.path)") }
        coverage.count(.rule, decision.rule, failed: !decision.allowed || exceeded)
        return decision.allowed && !exceeded
    }

    /// A device signed in as `auth` (nil: signed out); `label` names its random streams and
    /// must be stable and unique per device (e.g. the user id).
    public func client(auth: AuthContext?, label: String) -> FirestoreClient {
        FirestoreClient(auth: auth, label: label, backend: self)
    }

    /// The connection of the device `label` (made at its first client, kept for the run): a
    /// client made again for the same device continues its random stream instead of replaying
    /// it, which made every request of a re-made client fail or pass together.
    func network(of label: String) -> ClientNetwork {
        networks.withLock { networks in
            if let known = networks[label] { return known }
            let made = ClientNetwork(label: label, env: env, faults: faults, ledger: faultLedger, outages: outages)
            networks[label] = made
            return made
        }
    }

    /// The Cloud Storage SDK of the device `client` (same user, same connection); `label` names
    /// its random stream (`storage/<label>`) and must be stable and unique per device.
    public func storageClient(for client: FirestoreClient, label: String) -> StorageClient {
        StorageClient(auth: client.auth, network: client.network, label: label, backend: self)
    }

    /// A listener on `collection` without rules (admin SDK) that receives every committed change,
    /// none coalesced or lost: the feed checkers audit a run by. See `FirestoreClient.listen`.
    public func listen(_ collection: String, label: String, _ handler: @escaping SnapshotListener.Handler) -> SnapshotListener {
        listen(collection, label: label, connection: nil, onError: nil, .changes(handler))
    }

    func listen(
        _ collection: String, label: String, connection: ListenerConnection?, onError: SnapshotListener.ErrorHandler?,
        _ delivery: SnapshotListener.Delivery
    ) -> SnapshotListener {
        let store = firestore.store(collection)
        let listener = SnapshotListener(
            label: label, env: env, latency: faults.listenerLatency, tracker: tracker, connection: connection, delivery: delivery,
            onError: onError, onRemove: { store.removeListener($0) })
        let initial = store.addListener(listener)
        for snapshot in initial {
            let before = DocumentSnapshot(path: snapshot.path, fields: nil, version: 0, updateTime: snapshot.updateTime)
            listener.enqueue(DocumentChange(before: before, after: snapshot))
        }
        listener.raiseInitial()
        return listener
    }

    /// Shuts the project down, as `FirebaseApp.delete()` and `Firestore.terminate()` do: drops the
    /// deployed functions (triggers, callables, scheduled), the security rules, every collection
    /// with its documents and listeners. Apps capture themselves in the handlers they deploy and
    /// listeners capture their owners (app → backend → handler → app), so a backend that is never
    /// terminated is never freed; the scenario harness terminates each one when its run ends
    /// (`ScenarioContext.backend`). The backend must not be used afterwards.
    public func terminate() {
        functions.removeAll()
        firestore.terminate()
        storage.terminate()
        deployedRules.withLock { $0 = SecurityRules() }
    }

    /// Returns when no trigger delivery, listener pump or scheduled run is in flight.
    public func waitUntilIdle() async { await tracker.waitUntilIdle() }
}
