/// Every fault knob of the simulated backend in one place, with defaults from MODEL_RULES.md.
///
/// "documented" defaults come from Firebase/SendGrid documentation or SDK source; "*estimate*"
/// defaults are starting values nobody documents (scenarios may swarm them per seed).
public struct BackendFaults: Sendable, Hashable {
    // MARK: Client transactions (MODEL_RULES §1–4)
    /// Documented: iOS SDK `TransactionOptions.maxAttempts` default 5.
    public var transactionMaxAttempts = 5
    /// Documented: first retry waits ~1 s (firebase-ios-sdk `exponential_backoff`).
    public var transactionBackoffInitial: Duration = .seconds(1)
    /// Documented: each further wait ×1.5.
    public var transactionBackoffMultiplier = 1.5
    /// Documented: backoff cap 60 s.
    public var transactionBackoffMax: Duration = .seconds(60)
    /// Documented: ±50 % jitter on each wait.
    public var transactionBackoffJitter = 0.5

    // MARK: Server transactions (MODEL_RULES §5)
    /// Documented: 5 attempts.
    public var serverTransactionMaxAttempts = 5
    /// *Estimate*: server-side retry wait (contention shows as latency).
    public var serverTransactionBackoffInitial: Duration = .milliseconds(250)
    /// Documented (MODEL_RULES §23): server-SDK transactions lock what they read (Firestore's
    /// default database mode); `.optimistic` is the other database setting.
    public var serverTransactionConcurrency = ConcurrencyMode.pessimistic
    /// Documented: a server transaction that makes no read or commit for this long expires; its
    /// locks are released and its commit fails ABORTED.
    public var transactionLockIdleTimeout: Duration = .seconds(60)
    /// Documented: a server transaction expires this long after it began, however busy.
    public var transactionMaxLifetime: Duration = .seconds(270)

    // MARK: Per-document write rate (MODEL_RULES §6)
    /// Documented: about 1 sustained write per second per document.
    public var documentWritesPerSecond = 1.0
    /// *Estimate*: short bursts of this many writes pass without penalty.
    public var documentBurstWrites = 5.0
    /// *Estimate*: abort probability of a transaction commit per write of backlog above the rate.
    public var abortProbabilityPerExcessWrite = 0.15
    /// *Estimate*: cap on that abort probability.
    public var abortProbabilityMax = 0.9
    /// *Estimate*: the longest a plain write above the rate queues (backlog / rate, capped here;
    /// MODEL_RULES §25: plain writes are held to the rate too).
    public var documentWriteQueueMax: Duration = .seconds(5)
    /// Documented: a document holds at most 1 MiB (1,048,576 bytes); a write past it fails
    /// INVALID_ARGUMENT (MODEL_RULES §25).
    public var documentMaxBytes = 1_048_576

    // MARK: Triggers (MODEL_RULES §9–12)
    /// *Estimate*: probability that one event is delivered twice (5 % under stress).
    public var triggerDuplicateProbability = 0.005
    /// *Estimate*: probability that an event overtakes the previous event of the same document
    /// and trigger when the two writes are closer than `triggerReorderWindow`.
    public var triggerReorderProbability = 0.15
    /// Documented ("less than a second apart").
    public var triggerReorderWindow: Duration = .seconds(1)
    /// *Estimate*: probability that one event is held back `triggerLateDelayMin`…`Max` and
    /// overtaken by the document's later events, at any distance (MODEL_RULES §29: no order is
    /// promised at any distance).
    public var triggerLateProbability = 0.002
    /// *Estimate*: the shortest hold of a late event.
    public var triggerLateDelayMin: Duration = .seconds(10)
    /// *Estimate*: the longest hold of a late event.
    public var triggerLateDelayMax: Duration = .seconds(600)
    /// *Estimate*: p50 1 s, tail to 10 s.
    public var triggerDelay = LatencyModel(median: .seconds(1), tailProbability: 0.05, tailMax: .seconds(10))
    /// Documented: retries are off by default; a throwing handler loses its event.
    public var triggerRetriesEnabled = false
    /// Documented: retry backoff 10–600 s, for up to 24 h (2nd gen).
    public var triggerRetryBackoffMin: Duration = .seconds(10)
    /// The longest backoff between trigger retries.
    public var triggerRetryBackoffMax: Duration = .seconds(600)
    /// How long a failing trigger keeps being retried.
    public var triggerRetryWindow: Duration = .seconds(24 * 3600)
    /// Unconfirmed in the docs, so a switch: whether a duplicate delivery reuses the event id.
    public var duplicatesShareEventId = true

    // MARK: Scheduled functions (MODEL_RULES §13–15)
    /// *Estimate*: a run starts 0–10 s after its tick.
    public var scheduleStartJitterMax: Duration = .seconds(10)
    /// *Estimate*: probability a tick runs twice.
    public var scheduleDuplicateProbability = 0.01
    /// Documented (observed): the duplicate run comes about 7 s later.
    public var scheduleDuplicateDelay: Duration = .seconds(7)
    /// Documented: 3 min default deadline.
    public var scheduleDeadline: Duration = .seconds(180)
    /// *Estimate*: probability that a run outliving its deadline is retried while it still runs.
    public var scheduleOverlapRetryProbability = 0.5

    // MARK: Cloud Functions' own work (*estimates*)
    /// *Estimate*: latency of one admin-SDK call made inside a function (a read, a write, a
    /// transaction's read or commit): a round trip inside Google's network. Each call is a point
    /// where a client write can land between a function's read and its write.
    public var adminOperationLatency = LatencyModel(median: .milliseconds(8), tailProbability: 0.02, tailMax: .milliseconds(400))

    // MARK: Cloud Functions' life cycle (MODEL_RULES §20–22; docs/domain.md, "Function instances")
    /// *Estimate*: probability that an invocation lands on a new instance (a scale-out, an
    /// instance recycled while idle) and pays a cold start.
    public var coldStartProbability = 0.05
    /// *Estimate*: a Node.js function with the admin SDK starts in 1–5 s.
    public var coldStartMin: Duration = .seconds(1)
    /// The longest cold start.
    public var coldStartMax: Duration = .seconds(5)
    /// *Estimate*: probability that one admin-SDK call inside a function fails UNAVAILABLE (well
    /// under 1 %); the SDK retries it after a backoff, so it shows as latency.
    public var adminCallFailureProbability = 0.003
    /// Documented (google-gax defaults): the first retry waits 100 ms, each further wait ×1.3.
    public var adminCallBackoffInitial: Duration = .milliseconds(100)
    /// *Estimate*: probability that an admin-SDK write or commit inside a function acts and its
    /// answer is lost (a connection dropped after the server applied it; rarer than a failure).
    public var adminAnswerLostProbability = 0.0005
    /// *Estimate*: how long a function waits for a lost answer before DEADLINE_EXCEEDED (a stalled
    /// connection noticed by keep-alive).
    public var adminAnswerLostWait: Duration = .seconds(10)
    /// Documented: a function's execution timeout is 60 s unless it is deployed with another
    /// (`timeoutSeconds`, at most 540 s); a deploy option of each function overrides it.
    public var functionTimeout: Duration = .seconds(60)
    /// *Estimate*: probability that an invocation's instance crashes or is evicted mid-run (out of
    /// memory, a host maintenance event): one in 5,000. The writes made before stay.
    public var functionCrashProbability = 0.0002
    /// Documented (1st gen): a function deployed without `maxInstances` runs at most 3,000
    /// instances, each one invocation at a time; invocations beyond its limit queue.
    public var functionMaxInstances = 3_000
    /// *Estimate*: a call to a callable finding every instance busy waits this long for one, then
    /// answers RESOURCE_EXHAUSTED (HTTP 429).
    public var callableQueuePatience: Duration = .seconds(30)
    /// *Estimate*: probability that an invocation arriving at its function's limit starts at once
    /// on an instance past it (documented: in a surge the platform may briefly exceed the limit).
    public var instanceOvershootProbability = 0.05

    // MARK: Device clocks (MODEL_RULES §24; docs/domain.md, "Device clocks")
    /// *Estimate*: a device synced by network time is within ±this of the server.
    public var deviceClockSyncedSpread: Duration = .milliseconds(500)
    /// *Estimate*: probability that a device's clock is off by more than a sync leaves it (a few
    /// percent minutes off; some of them hours off with a manually set time).
    public var deviceClockOffProbability = 0.04
    /// *Estimate*: how far off such a device is at most, either way (minutes).
    public var deviceClockOffMax: Duration = .seconds(600)
    /// *Estimate*: of the devices off, the share set by hand, hours off (up to `deviceClockFarOffMax`).
    public var deviceClockFarOffShare = 0.2
    /// *Estimate*: how far off a hand-set clock is at most, either way (12 h: a day is the bound).
    public var deviceClockFarOffMax: Duration = .seconds(12 * 3600)
    /// *Estimate*: probability that a device's clock jumps once during a run (a network time sync
    /// resets its offset to within the synced spread; a synced clock jumps by its spread).
    public var deviceClockJumpProbability = 0.1
    /// When the jump happens: uniformly within this much time after the device appears.
    public var deviceClockJumpWithin: Duration = .seconds(3600)
    /// *Estimate*: every device's clock drifts by up to this many parts per million either way
    /// (a phone's quartz between network time syncs; 50 ppm is 4.3 s a day).
    public var deviceClockDriftMaxPartsPerMillion = 50.0

    // MARK: Timing (*estimate*)
    /// *Estimate*: backend events (network deliveries, trigger invocations, wake-ups) closer
    /// together than this are treated as concurrent — no clock orders them reliably — so the
    /// scheduling strategy, not the latency draws, chooses their order. A sixth of a client hop's
    /// median latency.
    public var concurrencyWindow: Duration = .milliseconds(10)

    // MARK: Client network (*estimates*)
    /// *Estimate*: one-way latency of a client request.
    public var networkLatency = LatencyModel(median: .milliseconds(60), tailProbability: 0.02, tailMax: .seconds(3))
    /// *Estimate*: probability a client request fails UNAVAILABLE without effect.
    public var networkFailureProbability = 0.01
    /// *Estimate*: probability a client request times out; its effect (if any) still happens.
    public var networkTimeoutProbability = 0.002
    /// *Estimate*: how long the client waits before DEADLINE_EXCEEDED.
    public var networkTimeout: Duration = .seconds(10)
    /// *Estimate*: snapshot listener delivery latency.
    public var listenerLatency = LatencyModel(median: .milliseconds(100), tailProbability: 0.02, tailMax: .seconds(5))
    /// *Estimate*: probability that a device listener's connection drops before it delivers a
    /// snapshot (mobile networks: a few disconnects per user per day); the changes meanwhile
    /// arrive as one snapshot when it resyncs.
    public var listenerDisconnectProbability = 0.02
    /// *Estimate*: a disconnect lasts 2 s to 2 min.
    public var listenerDisconnectMin: Duration = .seconds(2)
    /// The longest disconnect.
    public var listenerDisconnectMax: Duration = .seconds(120)

    // MARK: FCM (MODEL_RULES §16)
    /// Documented: `sendEachForMulticast` takes at most 500 tokens.
    public var fcmMaxTokensPerCall = 500
    /// *Estimate*: latency of one FCM call made from a function (the HTTP call itself, not the
    /// delivery to the device): p50 60 ms, tail to 2 s. A fan-out pays it per call.
    public var fcmCallLatency = LatencyModel(median: .milliseconds(60), tailProbability: 0.02, tailMax: .seconds(2))
    /// *Estimate*: transient per-token failure probability (reported per token, never thrown).
    public var fcmTokenFailureProbability = 0.01
    /// *Estimate*: delivery p50 under 1 s, long tail of minutes.
    public var fcmDelivery = LatencyModel(median: .milliseconds(500), tailProbability: 0.05, tailMax: .seconds(300))
    /// Documented (MODEL_RULES §27): how long FCM keeps a push for an away device when the
    /// message sets no time to live of its own (four weeks).
    public var fcmDefaultTimeToLive: Duration = .seconds(28 * 24 * 3600)
    /// *Estimate* (MODEL_RULES §33): the chance a device's FCM token is replaced during a run (the
    /// app restored on a new phone, its data cleared, FCM's own refresh); the old token answers
    /// UNREGISTERED from then on, and the app is handed the new one.
    public var fcmTokenRotationProbability = 0.02
    /// *Estimate* (MODEL_RULES §33: FCM expires the token of a device inactive for over 270 days):
    /// the chance a stored device token belongs to such a device when a run starts; it answers
    /// UNREGISTERED, as after an uninstall.
    public var fcmTokenExpiryProbability = 0.03

    // MARK: App Check (MODEL_RULES §32)
    /// *Estimate*: the share of devices whose attestation provider (App Attest, DeviceCheck) never
    /// yields an App Check token (an unsupported or modified device, a provider refusing it): a
    /// callable that enforces App Check refuses every call from them.
    public var appCheckAttestationFailureProbability = 0.01

    // MARK: SendGrid (MODEL_RULES §17)
    /// *Estimate*: probability of an HTTP 429 not explained by the account's rate (SendGrid's own
    /// throttling, transient).
    public var emailRateLimitProbability = 0.01
    /// *Estimate* (MODEL_RULES §33; SendGrid publishes the headers, not the numbers): the account's
    /// requests per refresh period (`X-RateLimit-Limit`); past it every send answers 429 until the
    /// period ends (`X-RateLimit-Reset`).
    public var emailRequestsPerPeriod = 600
    /// *Estimate*: SendGrid's refresh period.
    public var emailRatePeriod: Duration = .seconds(60)
    /// *Estimate*: the share of each period's requests other senders on the same account spend
    /// (a newsletter, another environment using the key), spread evenly over the period.
    public var emailQuotaUsedElsewhere = 0.25
    /// *Estimate*: probability the call times out after the email was sent (no idempotency key).
    public var emailTimeoutProbability = 0.005
    /// *Estimate*: request latency.
    public var emailLatency = LatencyModel(median: .milliseconds(300), tailProbability: 0.02, tailMax: .seconds(5))
    /// *Estimate*: client time-out of the SendGrid call.
    public var emailTimeout: Duration = .seconds(10)

    // MARK: Cloud Storage (*estimates*; docs/domain.md, "Cloud Storage")
    /// *Estimate*: the request leg of one upload of an image of a few hundred KB to 3 MB from a
    /// phone (the bytes travel): p50 400 ms, tail to 10 s.
    public var storageUploadLatency = LatencyModel(median: .milliseconds(400), tailProbability: 0.05, tailMax: .seconds(10))
    /// *Estimate*: probability an upload fails mid-transfer (UNAVAILABLE, nothing stored). Not
    /// swarmed: a scenario that uploads sets its own rate (media-uploads `uploadFailurePercent`).
    public var storageUploadFailureProbability = 0.02

    // MARK: Outages (*estimates*; MODEL_RULES §22, docs/domain.md "Outages")
    /// Provider incidents: bursts in which one service fails or slows for every caller. None by
    /// default; a world swarm draws them per seed.
    public var outages: [Outage] = []

    /// Planted defects of the backend (empty in every real run): for proving that a kinder
    /// backend fails a sweep (`BackendDefect`).
    public var defects: Set<BackendDefect> = []

    /// The documented defaults (`BackendFaults.default`).
    public init() {}

    /// The documented and estimated defaults.
    public static let `default` = BackendFaults()

    /// No faults and no latency: every call succeeds at once, events arrive exactly once, in
    /// order, without delay, and server transactions take no locks (a lock wait is a delay). For
    /// unit tests of the apps' logic.
    public static var none: BackendFaults {
        var faults = BackendFaults()
        faults.serverTransactionConcurrency = .optimistic
        faults.triggerDuplicateProbability = 0
        faults.triggerReorderProbability = 0
        faults.triggerLateProbability = 0
        faults.triggerDelay = .zero
        faults.scheduleStartJitterMax = .zero
        faults.scheduleDuplicateProbability = 0
        faults.scheduleOverlapRetryProbability = 0
        faults.networkLatency = .zero
        faults.networkFailureProbability = 0
        faults.networkTimeoutProbability = 0
        faults.listenerLatency = .zero
        faults.fcmTokenFailureProbability = 0
        faults.fcmTokenRotationProbability = 0
        faults.fcmTokenExpiryProbability = 0
        faults.appCheckAttestationFailureProbability = 0
        faults.fcmDelivery = .zero
        faults.emailRateLimitProbability = 0
        faults.emailQuotaUsedElsewhere = 0
        faults.emailRequestsPerPeriod = .max
        faults.emailTimeoutProbability = 0
        faults.emailLatency = .zero
        faults.abortProbabilityPerExcessWrite = 0
        faults.documentWriteQueueMax = .zero
        faults.adminOperationLatency = .zero
        faults.storageUploadLatency = .zero
        faults.storageUploadFailureProbability = 0
        faults.coldStartProbability = 0
        faults.functionCrashProbability = 0
        faults.instanceOvershootProbability = 0
        faults.fcmCallLatency = .zero
        faults.listenerDisconnectProbability = 0
        faults.adminCallFailureProbability = 0
        faults.adminAnswerLostProbability = 0
        faults.deviceClockSyncedSpread = .zero
        faults.deviceClockOffProbability = 0
        faults.deviceClockJumpProbability = 0
        faults.deviceClockDriftMaxPartsPerMillion = 0
        return faults
    }
}
