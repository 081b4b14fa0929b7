import SimulatedFirebase

extension SafeNSoundApp {
    /// Function names as deployed.
    public static let recordHeartbeatName = "recordHeartbeat"
    /// The 30-minute scheduled check's function name.
    public static let checkMissedHeartbeatsName = "checkMissedHeartbeats"
    /// The 2-minute sender's function name.
    public static let processScheduledAlertsName = "processScheduledAlerts"

    /// Builds the app on `backend`: alerts go out through FCM/SendGrid into `backend.outbox` (or
    /// through `messenger`, which may wrap that), and `recordHeartbeat` (callable),
    /// `checkMissedHeartbeats` (every 30 min) and `processScheduledAlerts` (every 2 min) are
    /// registered with Cloud Functions, so Cloud Scheduler's jitter, duplicate ticks and
    /// overlapping runs reach them; its security rules (`securityRules`) and indexes (`indexes`) are deployed. Devices then
    /// act through `client(uid:)`.
    /// State lives in backend documents (`SafeNSoundFirestoreStore`) unless `store` says otherwise
    /// (pass `SafeNSoundActorStore` for 100k-user timelines).
    public static func deployed(
        on backend: Backend, configuration: SafeNSoundConfiguration = SafeNSoundConfiguration(),
        messenger: (any SafeNSoundMessenger)? = nil, store: (any SafeNSoundStore)? = nil
    ) -> SafeNSoundApp {
        let app = SafeNSoundApp(
            environment: backend.env, configuration: configuration, messenger: messenger ?? SafeNSoundBackendMessenger(backend: backend),
            store: store ?? SafeNSoundFirestoreStore(firestore: backend.firestore), probe: SafeNSoundProbe(), backend: backend)
        app.register(on: backend.functions)
        backend.setRules(securityRules(configuration.variant), source: rulesFile(configuration.variant))
        deployIndexes(on: backend, variant: configuration.variant)
        return app
    }

    /// Deploys the indexes the app's queries need (`indexes`; none for `alerts-index-not-deployed`):
    /// for a `SafeNSoundFirestoreStore` built by hand on `backend`.
    public static func deployIndexes(on backend: Backend, variant: SafeNSoundVariant = .careful) {
        backend.setIndexes(variant == .alertsIndexNotDeployed ? .none : indexes)
    }

    /// The app on one user's device, signed in as `uid`; the app must be `deployed(on:)` a backend.
    public func client(uid: String) -> SafeNSoundClient {
        guard let backend else { preconditionFailure("SafeNSoundApp.client(uid:) needs an app deployed on a backend: use SafeNSoundApp.deployed(on:)") }
        return SafeNSoundClient(firestore: backend.client(auth: AuthContext(uid: uid), label: uid), functions: backend.functions)
    }

    /// The scheduled jobs scan every user or alert due, so they are deployed with the longest
    /// timeout (540 s; MODEL_RULES §20) instead of the default 60 s.
    static let batchTimeout = Functions.maxTimeout

    /// Registers the callable and the two scheduled functions (three with the daily reminder).
    /// Careful: `recordHeartbeat` verifies App Check without enforcing it (a check-in refused for
    /// a device's attestation would alarm the contacts of a user who tapped); the seed's other
    /// protections (auth, the uid check, the rate limit) still hold. Enforced in
    /// `app-check-enforced-heartbeat`.
    public func register(on functions: Functions) {
        functions.callable(Self.recordHeartbeatName, enforceAppCheck: variant == .appCheckEnforcedHeartbeat) { [self] request in
            guard let uid = request.auth?.uid else { throw BackendError.unauthenticated("recordHeartbeat requires a signed-in user") }
            let heartbeat = SafeNSoundHeartbeatRequest(
                userId: request.data["userId"]?.stringValue,
                timeZoneIdentifier: request.data["timezone"]?.stringValue ?? "",
                deviceModel: request.data["deviceInfo"]?.mapValue?["model"]?.stringValue ?? "unknown")
            let response = try await recordHeartbeat(authenticatedUserId: uid, request: heartbeat)
            return .map(["success": .bool(response.success), "lastHeartbeat": .timestamp(response.lastHeartbeat)])
        }
        functions.schedule(Self.checkMissedHeartbeatsName, every: configuration.missedHeartbeatCheckInterval, timeout: Self.batchTimeout) { [self] _ in
            await checkMissedHeartbeats()
        }
        functions.schedule(Self.processScheduledAlertsName, every: configuration.alertSenderInterval, timeout: Self.batchTimeout) { [self] _ in
            await processScheduledAlerts()
        }
        if let interval = configuration.dailyReminderInterval {
            functions.schedule(Self.sendDailyRemindersName, every: interval, timeout: Self.batchTimeout) { [self] run in
                await sendDailyReminders(scheduledTime: run.scheduledTime)
            }
        }
    }
}
