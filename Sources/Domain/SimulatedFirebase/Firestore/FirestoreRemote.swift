/// Who a request to a real Firestore speaks for.
public enum RemoteCaller: Sendable, Hashable {
    /// The admin SDK inside a function: no security rules.
    case admin
    /// A signed-in device: the server's rules judge it as this user.
    case user(AuthContext)
    /// A signed-out device.
    case signedOut
}

/// A real Firestore server (the emulator, or a project) behind the simulated Firebase's API: a
/// `Backend` made with one sends every Firestore read, write, query and transaction to it instead
/// of its own store, and receives its triggers from it (docs/real-firestore.md, "Real mode").
/// Deployments (rules, triggers) are queued when the app declares them and land before the
/// first request that follows.
public protocol FirestoreRemote: Sendable {
    /// The server and project, for reports ("emulator 127.0.0.1:8080, project r-…").
    var serverDescription: String { get }
    /// One document (nil fields when missing), inside `transaction` when given.
    func get(_ path: DocumentPath, as caller: RemoteCaller, transaction: String?) async throws(BackendError) -> DocumentSnapshot
    /// Commits `writes` atomically (in `transaction` when given). `expecting` holds the version
    /// (`DocumentSnapshot.version`; 0: missing) an optimistic transaction read of each document it
    /// writes: the commit fails FAILED_PRECONDITION when one changed since.
    func commit(
        _ writes: [(DocumentPath, WriteOperation)], as caller: RemoteCaller, transaction: String?, expecting: [DocumentPath: UInt64]
    ) async throws(BackendError)
    /// The documents `query` returns, as the server orders them.
    func query(_ query: Query, as caller: RemoteCaller) async throws(BackendError) -> [DocumentSnapshot]
    /// Begins a read-write transaction.
    func beginTransaction(as caller: RemoteCaller) async throws(BackendError) -> String
    /// Ends a transaction without committing it (errors ignored: the server expires it anyway).
    func rollback(_ transaction: String, as caller: RemoteCaller) async
    /// Deploys the app's rules file (replacing earlier ones) before the next request; nil: the
    /// design's rules have no file, a deployment problem every later request reports.
    func deployRules(_ source: String?)
    /// Registers a Firestore trigger with the server before the next request: its events for
    /// documents of collections matching `collection` reach `Backend.deliverRemoteEvent`.
    func deployTrigger(name: String, collection: String, kinds: Set<TriggerKind>)
}

extension BackendFaults {
    /// The faults a run against a real server keeps: none of Firestore's, the network's or the
    /// functions' (the server and the wall clock are what they are), every one of the services
    /// that stay simulated (FCM, SendGrid, Storage) and their outages. A device still goes
    /// offline when its app takes it offline (`ClientNetwork.setOnline`).
    /// The backoff of a retried trigger event in real mode (production's runs for days).
    public static let realServerRetryBackoff: ClosedRange<Duration> = .seconds(1) ... .seconds(8)
    /// How long a retried trigger event keeps being retried in real mode.
    public static let realServerRetryWindow: Duration = .seconds(120)

    public static func realServer(simulating faults: BackendFaults) -> BackendFaults {
        var kept = BackendFaults.none
        kept.fcmMaxTokensPerCall = faults.fcmMaxTokensPerCall
        kept.fcmCallLatency = faults.fcmCallLatency
        kept.fcmTokenFailureProbability = faults.fcmTokenFailureProbability
        kept.fcmDelivery = faults.fcmDelivery
        kept.emailRateLimitProbability = faults.emailRateLimitProbability
        kept.emailRequestsPerPeriod = faults.emailRequestsPerPeriod
        kept.emailRatePeriod = faults.emailRatePeriod
        kept.emailQuotaUsedElsewhere = faults.emailQuotaUsedElsewhere
        kept.emailTimeoutProbability = faults.emailTimeoutProbability
        kept.emailLatency = faults.emailLatency
        kept.emailTimeout = faults.emailTimeout
        kept.storageUploadLatency = faults.storageUploadLatency
        kept.storageUploadFailureProbability = faults.storageUploadFailureProbability
        kept.outages = faults.outages.filter { [.sendGrid, .fcm, .storage].contains($0.service) }
        // The emulator never redelivers an event; the functions here retry a retry-enabled one
        // themselves, as production would, on a short schedule so a run settles in minutes.
        kept.triggerRetryBackoffMin = realServerRetryBackoff.lowerBound
        kept.triggerRetryBackoffMax = realServerRetryBackoff.upperBound
        kept.triggerRetryWindow = realServerRetryWindow
        return kept
    }
}
