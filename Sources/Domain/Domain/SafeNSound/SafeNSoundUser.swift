import SimulatedFirebase

/// The `users/{userId}` document of SafeNSound, kept small (a few short strings and integers).
public struct SafeNSoundUser: Sendable, Equatable {
    /// The Firebase Auth uid.
    public var userId: String
    /// The name alerts use ("Ana hasn't checked in…").
    public var name: String
    /// The device's push token.
    public var fcmToken: String
    /// Who gets the email alert (at least one).
    public var emergencyContactEmails: [String]
    /// `checkInThreshold` in hours (24, 48 or 72 by default).
    public var checkInThresholdHours: Int
    /// The last accepted check-in (onboarding counts as the first).
    public var lastHeartbeat: Timestamp
    /// IANA identifier, e.g. "America/Los_Angeles"; updated on every heartbeat.
    public var timeZoneIdentifier: String
    /// Whether monitoring is on (inactive users get no alerts).
    public var isActive: Bool
    /// Time of the last accepted `recordHeartbeat` call (nil until the first call); the rate limit reads it.
    public var lastHeartbeatCallAt: Timestamp?
    /// Number of `heartbeats/{id}` records written for this user.
    public var heartbeatCount: Int
    /// The person's own address (`email` in the schema), nil if not given. The careful design uses
    /// it to find the account a reinstall left behind (a new anonymous uid onboards with it).
    public var email: String?
    /// The uid of the account that replaced this one at a reinstall (the careful design retires the
    /// old account: `isActive = false`); nil while this is the person's account.
    public var supersededBy: String?
    /// `dailyReminderEnabled`: whether the daily check-in reminder is on (off until the user turns it on).
    public var dailyReminderEnabled: Bool
    /// `dailyReminderTime`: the local time of the daily reminder, nil if never set.
    public var dailyReminderTime: SafeNSoundReminderTime?
    /// The local date (`SafeNSoundLocalDate` text) of the last reminder sent or skipped; the
    /// reminder function's own field (at most one per local day).
    public var lastReminderDay: String?
    /// When the last reminder was sent (the `reminder-every-24h` variant counts from it).
    public var lastReminderSentAt: Timestamp?
    /// When a reminder run claimed this user's due reminder (nil: unclaimed); a claim older than the
    /// lease may be taken over.
    public var reminderClaimedAt: Timestamp?

    /// A user with no heartbeat calls yet, monitoring on unless `isActive` is false.
    public init(
        userId: String, name: String, fcmToken: String, emergencyContactEmails: [String],
        checkInThresholdHours: Int, lastHeartbeat: Timestamp, timeZoneIdentifier: String,
        isActive: Bool = true, email: String? = nil
    ) {
        self.userId = userId
        self.name = name
        self.fcmToken = fcmToken
        self.emergencyContactEmails = emergencyContactEmails
        self.checkInThresholdHours = checkInThresholdHours
        self.lastHeartbeat = lastHeartbeat
        self.timeZoneIdentifier = timeZoneIdentifier
        self.isActive = isActive
        self.lastHeartbeatCallAt = nil
        self.heartbeatCount = 0
        self.email = email
        self.supersededBy = nil
        self.dailyReminderEnabled = false
        self.dailyReminderTime = nil
        self.lastReminderDay = nil
        self.lastReminderSentAt = nil
        self.reminderClaimedAt = nil
    }
}
