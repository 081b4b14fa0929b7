import SimulatedFirebase

/// Where SafeNSound keeps `users/{userId}` and `scheduled_alerts/{alertId}`.
///
/// Every method that checks and writes does so atomically (one actor step, or one Firestore
/// transaction), which is what the careful design's guarantees rest on.
public protocol SafeNSoundStore: Sendable {
    /// Creates the user's document; `userAlreadyRegistered` if it exists.
    func insertUser(_ user: SafeNSoundUser) async throws(SafeNSoundError)
    func user(_ userId: String) async -> SafeNSoundUser?
    /// Checks the 1-per-minute limit and records the heartbeat in one atomic step, with the check
    /// it asks for at `checkAt(updated user)` (earliest wins, as `scheduleCheck`): a function that
    /// dies after it cannot leave a heartbeat nobody checks.
    func recordHeartbeatAtomically(
        userId: String, at now: Timestamp, timeZoneIdentifier: String, minimumSpacing: Duration,
        checkAt: @Sendable (SafeNSoundUser) -> Timestamp
    ) async throws(SafeNSoundError) -> SafeNSoundUser
    /// Records a heartbeat without any check (the write half of the literal read-then-write).
    func applyHeartbeat(userId: String, at now: Timestamp, timeZoneIdentifier: String) async throws(SafeNSoundError) -> SafeNSoundUser
    func setThreshold(userId: String, hours: Int) async throws(SafeNSoundError) -> SafeNSoundUser
    func setActive(userId: String, _ isActive: Bool) async throws(SafeNSoundError)
    /// Replaces `emergencyContacts` (Settings: add, remove, edit a contact).
    func setEmergencyContacts(userId: String, _ emails: [String]) async throws(SafeNSoundError)
    /// Active users other than `userId` whose `email` is `email` (an account a reinstall left behind).
    func activeUsers(withEmail email: String, except userId: String) async -> [String]
    /// Retires `userId` atomically if it is still active: `isActive = false`, `supersededBy = successor`.
    func retire(userId: String, supersededBy successor: String) async -> Bool
    /// Sets `fcmToken` (the app registering its push token on launch) and returns the updated user.
    func setPushToken(userId: String, token: String) async throws(SafeNSoundError) -> SafeNSoundUser
    /// Clears `fcmToken` atomically if it is still `token` (FCM said UNREGISTERED for it); a token the
    /// app registered meanwhile is kept. True if it cleared it.
    func clearPushToken(userId: String, ifStill token: String) async -> Bool

    /// Asks for a check of `userId` at `due` or earlier: the user's `nextCheckDue`, the earliest
    /// request wins. Kept with the users, not in a function instance, so any instance sees it.
    func scheduleCheck(_ userId: String, at due: Timestamp) async
    /// Returns every `nextCheckDue <= horizon`, ordered by due time then user id, and leases each
    /// until `now + lease`: an overlapping run does not take a leased user, and a run that dies
    /// before `finishCheck` leaves the user to a run after the lease. `lease` nil: the entries are
    /// removed for good (`check-takes-for-good`).
    func takeDueChecks(through horizon: Timestamp, now: Timestamp, lease: Duration?) async -> [(userId: String, due: Timestamp)]
    /// The check handled `userId`, taken at `due`: the entry goes (or becomes `next`), unless
    /// something asked for an earlier visit meanwhile, which stays (earliest wins); the lease ends.
    func finishCheck(_ userId: String, taken due: Timestamp, next: Timestamp?) async

    /// `create()` with the alert's id: false if an alert with that id exists (ALREADY_EXISTS).
    func createAlertIfAbsent(_ alert: SafeNSoundScheduledAlert) async -> Bool
    /// `add()` with a random id (the literal design).
    func addAlertWithRandomId(_ alert: SafeNSoundScheduledAlert) async -> SafeNSoundScheduledAlert
    /// Alerts with status `scheduled`, or `sending` (a sender may have died holding the claim), and
    /// `scheduledFor <= now`, ordered by time then id.
    func dueAlerts(at now: Timestamp) async -> [SafeNSoundScheduledAlert]
    /// scheduled (or sending with an expired lease) → sending, atomically; nil if another run has it.
    func claimAlert(_ alertId: String, at now: Timestamp, lease: Duration) async -> SafeNSoundScheduledAlert?
    /// Adds `recipient` to the alert's `deliveredTo` (if absent) atomically; a retry skips it.
    func recordDelivery(_ alertId: String, to recipient: String) async
    /// An open (`scheduled` or claimed) alert back to `scheduled` at `due`; closed alerts stay closed.
    func rescheduleAlert(_ alertId: String, to due: Timestamp) async
    func finishAlert(_ alertId: String, as status: SafeNSoundScheduledAlert.Status) async
    /// A failed attempt: `failedAttempts += 1` and the alert back to `scheduled`, due again at
    /// `retryAt` (nil: keeps its due time, so the next run retries it), atomically.
    func retryAlert(_ alertId: String, at retryAt: Timestamp?) async
    /// Cancels every still-`scheduled` alert of the user; returns how many.
    func cancelPendingAlerts(userId: String) async -> Int
    /// Every alert, ordered by creation time then id.
    func allAlerts() async -> [SafeNSoundScheduledAlert]

    /// Sets `dailyReminderEnabled` and `dailyReminderTime` (nil: clears the time).
    func setDailyReminder(userId: String, enabled: Bool, time: SafeNSoundReminderTime?) async throws(SafeNSoundError)
    /// Users with `dailyReminderEnabled`, ordered by id (the reminder function's query).
    func usersWithDailyReminder() async -> [SafeNSoundUser]
    /// Claims the reminder of local date `day` atomically: only if reminders are still on,
    /// `lastReminderDay` is before `day` and no other run holds a claim younger than `lease`.
    /// Sets `reminderClaimedAt = now` and returns the user as it is now; nil if not claimed.
    func claimReminder(userId: String, day: SafeNSoundLocalDate, at now: Timestamp, lease: Duration) async -> SafeNSoundUser?
    /// Ends a claim atomically: with `day`, `lastReminderDay` becomes `day` (if later) and, with
    /// `sentAt`, `lastReminderSentAt` becomes `sentAt`; without `day` the claim is only released
    /// (the push failed: a later run retries).
    func finishReminder(userId: String, day: SafeNSoundLocalDate?, sentAt: Timestamp?) async
    /// Every alert of `userId`, ordered by creation time then id (`allAlerts` filtered to the user).
    func alerts(of userId: String) async -> [SafeNSoundScheduledAlert]
}

extension SafeNSoundStore {
    /// `allAlerts` filtered to the user: stores with a per-user index answer it without the scan.
    public func alerts(of userId: String) async -> [SafeNSoundScheduledAlert] {
        await allAlerts().filter { $0.userId == userId }
    }
}
