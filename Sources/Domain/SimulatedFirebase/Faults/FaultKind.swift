/// A fault the simulated backend claims to inject (MODEL_RULES), as counted by `FaultLedger`.
public enum FaultKind: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// A trigger event delivered a second time (§9).
    case triggerDuplicate = "trigger-duplicate"
    /// A trigger event delivered before an event of the same document and trigger committed
    /// less than `triggerReorderWindow` earlier (§9).
    case triggerReorder = "trigger-reorder"
    /// A client request failed UNAVAILABLE without effect.
    case networkFailure = "network-failure"
    /// A client request timed out (DEADLINE_EXCEEDED) after its effect.
    case networkTimeout = "network-timeout"
    /// A transaction commit aborted because the document's write rate was exceeded (§6).
    case contentionAbort = "contention-abort"
    /// A scheduled tick ran twice (§13).
    case scheduleDuplicate = "schedule-duplicate"
    /// A scheduled run outlived its deadline and was retried while it still ran (§14).
    case scheduleOverlap = "schedule-overlap"
    /// FCM reported a transient failure for one token (§16).
    case fcmTokenFailure = "fcm-token-failure"
    /// SendGrid answered 429 and sent nothing (§17).
    case emailRateLimit = "email-rate-limit"
    /// A SendGrid call timed out after the email was sent (§17).
    case emailTimeout = "email-timeout"
    /// A Cloud Storage upload failed mid-transfer and stored nothing (docs/domain.md, "Cloud Storage").
    case storageUploadFailure = "storage-upload-failure"

    /// A fetch of a scraped website (KNB's congregation homepage) failed with a server error.
    case websiteFetchFailure = "website-fetch-failure"
    /// A fetch of a scraped website took minutes, past the scheduled run's deadline (§14).
    case websiteSlowFetch = "website-slow-fetch"
    /// A provider outage started (a chance per virtual minute; `Outage`).
    case outage
    /// A function invocation landed on a new instance and paid a cold start (§20).
    case coldStart = "cold-start"
    /// An admin-SDK call inside a function failed UNAVAILABLE and the SDK retried it (§22).
    case adminCallFailure = "admin-call-failure"
    /// A device's clock was minutes or hours off the server's (§24).
    case deviceClockOff = "device-clock-off"
    /// A device's clock jumped at a network time sync (§24).
    case deviceClockJump = "device-clock-jump"
    /// A device listener's connection dropped; it resynced later (§19).
    case listenerDisconnect = "listener-disconnect"
    /// A function invocation's instance crashed or was evicted mid-run: the writes it made stay,
    /// nothing after ran, and the event is redelivered only with retries (§20).
    case functionCrash = "function-crash"
    /// A function invocation ran past its execution timeout and was terminated there (§20). A
    /// limit, not a draw: counted when it happens, with no expectation.
    case functionTimeout = "function-timeout"
    /// A write, a commit or a server transaction's read waited for a lock another server
    /// transaction held on the document (§23). Contention, not a draw: counted when it happens.
    case lockWait = "lock-wait"
    /// An older server transaction needed a lock a younger one held: the younger was aborted and
    /// retried (wound-wait, §23). Counted when it happens.
    case transactionWounded = "transaction-wounded"
    /// A server transaction held its locks idle past 60 s or ran past 270 s: it was aborted and
    /// its locks released (§23). Counted when it happens.
    case transactionExpired = "transaction-expired"
    /// An admin-SDK write or commit inside a function acted, and its answer was lost: the function
    /// heard DEADLINE_EXCEEDED (§22).
    case adminAnswerLost = "admin-answer-lost"
    /// A plain write above a document's sustained write rate queued behind the writes ahead of it
    /// (§25). Counted when it happens.
    case writeRateDelay = "write-rate-delay"
    /// A write would have made a document larger than 1 MiB and failed INVALID_ARGUMENT (§25).
    /// A limit: counted when it happens.
    case documentTooLarge = "document-too-large"
    /// An invocation found every instance its function may run busy and queued for one (§21).
    /// A limit: counted when it happens.
    case instanceQueueWait = "instance-queue-wait"
    /// An invocation arriving at its function's instance limit started at once on an instance past
    /// it, as the platform may briefly allow in a surge (§21).
    case instanceOvershoot = "instance-overshoot"
    /// A push still waiting for its device was replaced by a newer one with the same collapse key
    /// (FCM keeps the newest). Counted when it happens.
    case fcmCollapse = "fcm-collapse"
    /// A device's write its listeners showed at once (latency compensation) was refused by the
    /// server or lost its answer, and the listeners stopped showing it (§19). Counted when it happens.
    case localWriteRollback = "local-write-rollback"
    /// A download URL's token served a Storage object the rules refuse the one fetching it (a URL
    /// copied while they could read it; MODEL_RULES §28). Counted when it happens.
    case downloadURLBypass = "download-url-bypass"
    /// A trigger event was held back minutes, so the document's later events could be delivered
    /// before it, however far apart they were committed (§29).
    case triggerLate = "trigger-late"
    /// A client request's rules read more distinct documents with `get()`/`exists()` than one
    /// request may (10, or 20 for a query or a commit of several writes) and it was denied
    /// (MODEL_RULES §31). A limit: counted when it happens.
    case rulesAccessLimit = "rules-access-limit"
    /// A push reached a device that was away, where APNs had stored an earlier one of the app:
    /// APNs keeps one notification per app, so the earlier never showed (MODEL_RULES §27).
    /// Counted when it happens.
    case apnsReplaced = "apns-replaced"
    /// A push waited for an away device longer than its time to live and was dropped
    /// (MODEL_RULES §27). Counted when it happens.
    case fcmTTLExpired = "fcm-ttl-expired"
    /// FCM replaced a device's token during the run: sends to the old one answer UNREGISTERED and
    /// the app is handed the new one to record (MODEL_RULES §33).
    case fcmTokenRotated = "fcm-token-rotated"
    /// A SendGrid send found the account's requests for the refresh period spent (by this app and
    /// the other senders sharing the account) and was answered 429 until the period's reset
    /// (MODEL_RULES §33). A limit: counted when it happens.
    case emailQuotaExceeded = "email-quota-exceeded"
    /// A stored token belonged to a device inactive for over 270 days: FCM had expired it, and
    /// sends to it answer UNREGISTERED (MODEL_RULES §33).
    case fcmTokenExpired = "fcm-token-expired"
    /// A device's attestation provider gave it no App Check token: a callable enforcing App Check
    /// refuses its calls (MODEL_RULES §32). Drawn once per device, at its first call that sends one.
    case appCheckAttestationFailed = "app-check-attestation-failed"

    /// What else makes this kind happen besides its drawn probability, which is all the
    /// expectation counts; nil when the draws are its only source. A sweep whose count is far
    /// above the expectation says this; with nil it fails (the backend injects more than it claims).
    public var otherSources: String? {
        switch self {
        case .triggerReorder:
            "an event that overtakes its predecessor also passes any earlier event of the document still in flight, and each it passes arrives inverted: one draw can make several"
        default: nil
        }
    }

    /// By name (the order reports list them in).
    public static func < (lhs: FaultKind, rhs: FaultKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The case's position in `allCases`, without hashing its raw string (the ledger's tallies
    /// are an array indexed by it: a dictionary keyed by a `String`-backed enum hashes the string).
    package var ordinal: Int {
        switch self {
        case .triggerDuplicate: 0
        case .triggerReorder: 1
        case .networkFailure: 2
        case .networkTimeout: 3
        case .contentionAbort: 4
        case .scheduleDuplicate: 5
        case .scheduleOverlap: 6
        case .fcmTokenFailure: 7
        case .emailRateLimit: 8
        case .emailTimeout: 9
        case .storageUploadFailure: 10
        case .websiteFetchFailure: 11
        case .websiteSlowFetch: 12
        case .outage: 13
        case .coldStart: 14
        case .adminCallFailure: 15
        case .deviceClockOff: 16
        case .deviceClockJump: 17
        case .listenerDisconnect: 18
        case .functionCrash: 19
        case .functionTimeout: 20
        case .lockWait: 21
        case .transactionWounded: 22
        case .transactionExpired: 23
        case .adminAnswerLost: 24
        case .writeRateDelay: 25
        case .documentTooLarge: 26
        case .instanceQueueWait: 27
        case .instanceOvershoot: 28
        case .fcmCollapse: 29
        case .localWriteRollback: 30
        case .downloadURLBypass: 31
        case .triggerLate: 32
        case .rulesAccessLimit: 33
        case .apnsReplaced: 34
        case .fcmTTLExpired: 35
        case .fcmTokenRotated: 36
        case .emailQuotaExceeded: 37
        case .fcmTokenExpired: 38
        case .appCheckAttestationFailed: 39
        }
    }
}
