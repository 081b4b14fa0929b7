import SimulatedFirebase
import Synchronization

/// The fast store: one actor per user (`checkin/<uid>`, well under 1 KiB each) and one actor for
/// the alerts. For large timelines (100k users) where Firestore documents would cost too much.
public final class SafeNSoundActorStore: SafeNSoundStore {
    private let environment: DomainEnvironment
    private let accounts = Mutex<[String: SafeNSoundCheckInAccount]>([:])
    /// Uids per account `email` (the schema's field is set at onboarding and never changes here).
    private let uidsByEmail = Mutex<[String: [String]]>([:])
    private let alertQueue: SafeNSoundAlertQueue
    /// `nextCheckDue` of every user, as a bucketed index (the Firestore store keeps it as a field).
    private let dueIndex: SafeNSoundDueIndex

    /// `checkSlotWidth` buckets the due index (the 30-minute check period); it changes cost, not results.
    public init(environment: DomainEnvironment, checkSlotWidth: Duration = .seconds(30 * 60)) {
        self.environment = environment
        self.alertQueue = SafeNSoundAlertQueue(environment: environment)
        self.dueIndex = SafeNSoundDueIndex(environment: environment, slotWidth: checkSlotWidth)
    }

    private func account(_ userId: String) throws(SafeNSoundError) -> SafeNSoundCheckInAccount {
        guard let account = accounts.withLock({ $0[userId] }) else { throw .userNotFound(userId: userId) }
        return account
    }

    /// Creates the user's document; `userAlreadyRegistered` if it exists.
    public func insertUser(_ user: SafeNSoundUser) async throws(SafeNSoundError) {
        let account = SafeNSoundCheckInAccount(user: user, environment: environment)
        let inserted = accounts.withLock { table -> Bool in
            if table[user.userId] != nil { return false }
            table[user.userId] = account
            return true
        }
        guard inserted else { throw .userAlreadyRegistered(userId: user.userId) }
        if let email = user.email { uidsByEmail.withLock { $0[email, default: []].append(user.userId) } }
    }

    /// Active users other than `userId` onboarded with `email`, in onboarding order.
    public func activeUsers(withEmail email: String, except userId: String) async -> [String] {
        var active: [String] = []
        for uid in uidsByEmail.withLock({ $0[email] ?? [] }) where uid != userId {
            if await user(uid)?.isActive == true { active.append(uid) }
        }
        return active
    }

    /// Retires `userId` if still active (one actor step).
    public func retire(userId: String, supersededBy successor: String) async -> Bool {
        guard let account = try? account(userId) else { return false }
        return await account.retire(supersededBy: successor)
    }

    /// The user's document, nil if absent.
    public func user(_ userId: String) async -> SafeNSoundUser? {
        guard let account = try? account(userId) else { return nil }
        return await account.snapshot()
    }

    /// Checks the 1-per-minute limit and records the heartbeat in one atomic step.
    public func recordHeartbeatAtomically(
        userId: String, at now: Timestamp, timeZoneIdentifier: String, minimumSpacing: Duration,
        checkAt: @Sendable (SafeNSoundUser) -> Timestamp
    ) async throws(SafeNSoundError) -> SafeNSoundUser {
        let updated = try await account(userId).recordHeartbeatAtomically(at: now, timeZoneIdentifier: timeZoneIdentifier, minimumSpacing: minimumSpacing)
        await dueIndex.schedule(userId, at: checkAt(updated))
        return updated
    }

    /// Records a heartbeat without any check (the write half of the literal read-then-write).
    public func applyHeartbeat(userId: String, at now: Timestamp, timeZoneIdentifier: String) async throws(SafeNSoundError) -> SafeNSoundUser {
        await (try account(userId)).applyHeartbeat(at: now, timeZoneIdentifier: timeZoneIdentifier)
    }

    /// Sets `checkInThreshold` (hours) and returns the updated user.
    public func setThreshold(userId: String, hours: Int) async throws(SafeNSoundError) -> SafeNSoundUser {
        let account = try account(userId)
        await account.setThreshold(hours: hours)
        return await account.snapshot()
    }

    /// Pauses or resumes monitoring (`isActive`).
    public func setActive(userId: String, _ isActive: Bool) async throws(SafeNSoundError) {
        await (try account(userId)).setActive(isActive)
    }

    /// Replaces `emergencyContacts` (Settings: add, remove, edit a contact).
    public func setEmergencyContacts(userId: String, _ emails: [String]) async throws(SafeNSoundError) {
        await (try account(userId)).setEmergencyContacts(emails)
    }

    /// Sets `fcmToken` and returns the updated user.
    public func setPushToken(userId: String, token: String) async throws(SafeNSoundError) -> SafeNSoundUser {
        await (try account(userId)).setPushToken(token)
    }

    /// Clears `fcmToken` if it is still `token` (one actor step); true if it cleared it.
    public func clearPushToken(userId: String, ifStill token: String) async -> Bool {
        guard let account = try? account(userId) else { return false }
        return await account.clearPushToken(ifStill: token)
    }

    /// Asks for a check of `userId` at `due` or earlier: the user's `nextCheckDue`, the earliest request wins. Kept with the users, not in a function instance, so any instance sees it.
    public func scheduleCheck(_ userId: String, at due: Timestamp) async { await dueIndex.schedule(userId, at: due) }
    /// Every `nextCheckDue <= horizon` not leased, ordered by due time then user id, each leased until `now + lease` (nil: removed for good).
    public func takeDueChecks(through horizon: Timestamp, now: Timestamp, lease: Duration?) async -> [(userId: String, due: Timestamp)] {
        await dueIndex.takeDue(through: horizon, now: now, lease: lease)
    }
    /// Ends `userId`'s lease: its entry taken at `due` goes or becomes `next` (an earlier request made meanwhile stays).
    public func finishCheck(_ userId: String, taken due: Timestamp, next: Timestamp?) async {
        await dueIndex.finish(userId, taken: due, next: next)
    }

    /// `create()` with the alert's id: false if an alert with that id exists (ALREADY_EXISTS).
    public func createAlertIfAbsent(_ alert: SafeNSoundScheduledAlert) async -> Bool { await alertQueue.createIfAbsent(alert) }
    /// `add()` with a random id (the literal design).
    public func addAlertWithRandomId(_ alert: SafeNSoundScheduledAlert) async -> SafeNSoundScheduledAlert { await alertQueue.addWithRandomId(alert) }
    /// Alerts with status `scheduled`, or `sending` (a sender may have died holding the claim), and
    /// `scheduledFor <= now`, ordered by time then id.
    public func dueAlerts(at now: Timestamp) async -> [SafeNSoundScheduledAlert] { await alertQueue.dueAlerts(at: now) }
    /// scheduled (or sending with an expired lease) → sending, atomically; nil if another run has it.
    public func claimAlert(_ alertId: String, at now: Timestamp, lease: Duration) async -> SafeNSoundScheduledAlert? {
        await alertQueue.claim(alertId, at: now, lease: lease)
    }
    /// Adds `recipient` to the alert's `deliveredTo` (if absent) atomically; a retry skips it.
    public func recordDelivery(_ alertId: String, to recipient: String) async { await alertQueue.recordDelivery(alertId, to: recipient) }
    /// An open (`scheduled` or claimed) alert back to `scheduled` at `due`; closed alerts stay closed.
    public func rescheduleAlert(_ alertId: String, to due: Timestamp) async { await alertQueue.reschedule(alertId, to: due) }
    /// Closes the alert as `status` (sent, cancelled or failed).
    public func finishAlert(_ alertId: String, as status: SafeNSoundScheduledAlert.Status) async { await alertQueue.finish(alertId, as: status) }
    /// A failed attempt: `failedAttempts += 1`, back to `scheduled` (at `retryAt` if given).
    public func retryAlert(_ alertId: String, at retryAt: Timestamp?) async { await alertQueue.retry(alertId, at: retryAt) }
    /// Cancels every still-`scheduled` alert of the user; returns how many.
    public func cancelPendingAlerts(userId: String) async -> Int { await alertQueue.cancelPending(userId: userId) }
    /// Every alert, ordered by creation time then id.
    public func allAlerts() async -> [SafeNSoundScheduledAlert] { await alertQueue.allAlerts() }

    /// Sets the reminder settings.
    public func setDailyReminder(userId: String, enabled: Bool, time: SafeNSoundReminderTime?) async throws(SafeNSoundError) {
        await (try account(userId)).setDailyReminder(enabled: enabled, time: time)
    }
    /// Users with reminders on, ordered by id (a scan of every account: reminders are not indexed here).
    public func usersWithDailyReminder() async -> [SafeNSoundUser] {
        var found: [SafeNSoundUser] = []
        for uid in accounts.withLock({ $0.keys.sorted() }) {
            if let user = await user(uid), user.dailyReminderEnabled { found.append(user) }
        }
        return found
    }
    /// Claims the reminder of `day` (one actor step).
    public func claimReminder(userId: String, day: SafeNSoundLocalDate, at now: Timestamp, lease: Duration) async -> SafeNSoundUser? {
        guard let account = try? account(userId) else { return nil }
        return await account.claimReminder(day: day, at: now, lease: lease)
    }
    /// Ends a reminder claim (one actor step).
    public func finishReminder(userId: String, day: SafeNSoundLocalDate?, sentAt: Timestamp?) async {
        guard let account = try? account(userId) else { return }
        await account.finishReminder(day: day, sentAt: sentAt)
    }
}
