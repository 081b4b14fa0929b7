import SimulatedFirebase

/// Tunable numbers of the SafeNSound rules; defaults follow the seed's timeline and README.
public struct SafeNSoundConfiguration: Sendable {
    /// Hours before the threshold at which the pre-notification is due. The seed says 3 in its
    /// timeline and user-facing text and 2 in its pseudo-code; 3 is the default.
    public var preNotificationLeadHours: Int
    /// Thresholds a user may choose (`checkInThreshold` in the schema: 24, 48 or 72 hours).
    public var allowedThresholdHours: [Int]
    /// Minimum spacing between two accepted heartbeats of one user (1 per minute).
    public var heartbeatMinimumSpacing: Duration
    /// Period of `checkMissedHeartbeats` (30 minutes); also its look-ahead in the careful design.
    public var missedHeartbeatCheckInterval: Duration
    /// Period of `processScheduledAlerts` (2 minutes).
    public var alertSenderInterval: Duration
    /// How long a claimed alert stays claimed before another run may take it over (a crashed sender).
    public var alertClaimLease: Duration
    /// Longest wait between two attempts at a failing alert (§ Error Handling, Email Send Failure:
    /// "Retry with exponential backoff"). The k-th consecutive failure waits
    /// `min(alertSenderInterval × 2^(k−1), alertRetryMaxDelay)` from the failed run; the default
    /// (one sender period) keeps the fixed 2-minute retry.
    public var alertRetryMaxDelay: Duration
    /// Failed attempts after which the `email-failure-marks-failed` variant marks an email alert
    /// `failed` and stops ("Log failure, mark alert as failed"); the careful design never stops.
    public var emailMaxAttempts: Int
    /// Which design runs.
    public var variant: SafeNSoundVariant
    /// Period of `sendDailyReminders`, the scheduled function that sends the daily check-in reminder
    /// (docs/domain.md, "SafeNSound daily reminder"); nil (the default) does not deploy it, so
    /// deployments that predate it tick exactly as before.
    public var dailyReminderInterval: Duration?
    /// How late a reminder may still go out after its local time (a run that failed or was late);
    /// a reminder not sent by then is dropped for that day rather than sent at an unexpected hour.
    public var dailyReminderCatchUp: Duration = .seconds(15 * 60)
    /// Whether a check-in earlier the same local day makes that day's reminder unnecessary (skipped).
    public var dailyReminderSkipsAfterCheckIn = true

    /// The seed's defaults: 3 h lead, 24/48/72 h thresholds, 1 heartbeat a minute, checks every 30 min, sends every 2 min.
    public init(
        preNotificationLeadHours: Int = 3,
        allowedThresholdHours: [Int] = [24, 48, 72],
        heartbeatMinimumSpacing: Duration = .seconds(60),
        missedHeartbeatCheckInterval: Duration = .seconds(30 * 60),
        alertSenderInterval: Duration = .seconds(2 * 60),
        alertClaimLease: Duration = .seconds(3 * 60),
        alertRetryMaxDelay: Duration = .seconds(2 * 60),
        emailMaxAttempts: Int = 3,
        variant: SafeNSoundVariant = .careful
    ) {
        precondition(emailMaxAttempts >= 1, "at least one email attempt")
        precondition(preNotificationLeadHours >= 0, "pre-notification lead must not be negative")
        precondition(!allowedThresholdHours.isEmpty, "at least one threshold must be allowed")
        self.preNotificationLeadHours = preNotificationLeadHours
        self.allowedThresholdHours = allowedThresholdHours
        self.heartbeatMinimumSpacing = heartbeatMinimumSpacing
        self.missedHeartbeatCheckInterval = missedHeartbeatCheckInterval
        self.alertSenderInterval = alertSenderInterval
        self.alertClaimLease = alertClaimLease
        self.alertRetryMaxDelay = alertRetryMaxDelay
        self.emailMaxAttempts = emailMaxAttempts
        self.variant = variant
    }
}
