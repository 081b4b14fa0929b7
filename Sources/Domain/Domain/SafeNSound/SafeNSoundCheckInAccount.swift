import SimulatedFirebase

/// The actor owning one user's `users/{userId}` document: every heartbeat and read of it is serialised here.
actor SafeNSoundCheckInAccount: DomainActor {
    nonisolated let executor: any SerialExecutor
    nonisolated let userId: String
    private var user: SafeNSoundUser

    init(user: SafeNSoundUser, environment: DomainEnvironment) {
        self.userId = user.userId
        self.user = user
        self.executor = environment.makeExecutor(label: "checkin/\(user.userId)")
    }

    func snapshot() -> SafeNSoundUser { user }

    /// Rate limit check and write in one isolated step (a transaction): two concurrent calls
    /// cannot both pass, because nothing can run on this actor between the check and the write.
    func recordHeartbeatAtomically(
        at now: Timestamp, timeZoneIdentifier: String, minimumSpacing: Duration
    ) throws(SafeNSoundError) -> SafeNSoundUser {
        try Self.checkRateLimit(user, now: now, minimumSpacing: minimumSpacing)
        return applyHeartbeat(at: now, timeZoneIdentifier: timeZoneIdentifier)
    }

    /// Writes a heartbeat without checking anything (the second half of a read-then-write).
    func applyHeartbeat(at now: Timestamp, timeZoneIdentifier: String) -> SafeNSoundUser {
        precondition(now >= user.lastHeartbeat, "heartbeats must not move lastHeartbeat backwards")
        user.lastHeartbeat = now
        user.lastHeartbeatCallAt = now
        user.timeZoneIdentifier = timeZoneIdentifier
        user.heartbeatCount += 1
        return user
    }

    func setActive(_ isActive: Bool) { user.isActive = isActive }

    func setThreshold(hours: Int) { user.checkInThresholdHours = hours }

    func setEmergencyContacts(_ emails: [String]) { user.emergencyContactEmails = emails }

    /// Retires the account if still active (one isolated step).
    func retire(supersededBy successor: String) -> Bool {
        guard user.isActive else { return false }
        user.isActive = false
        user.supersededBy = successor
        return true
    }

    func setPushToken(_ token: String) -> SafeNSoundUser {
        user.fcmToken = token
        return user
    }

    /// Clears the token only if it is still `token` (one isolated step: a compare-and-set).
    func clearPushToken(ifStill token: String) -> Bool {
        guard user.fcmToken == token, !token.isEmpty else { return false }
        user.fcmToken = ""
        return true
    }

    func setDailyReminder(enabled: Bool, time: SafeNSoundReminderTime?) {
        user.dailyReminderEnabled = enabled
        user.dailyReminderTime = time
    }

    /// Claims the reminder of `day` (one isolated step; see `SafeNSoundStore.claimReminder`).
    func claimReminder(day: SafeNSoundLocalDate, at now: Timestamp, lease: Duration) -> SafeNSoundUser? {
        guard user.dailyReminderEnabled, (user.lastReminderDay ?? "") < day.description else { return nil }
        if let claimed = user.reminderClaimedAt, claimed + lease > now { return nil }
        user.reminderClaimedAt = now
        return user
    }

    /// Ends a reminder claim (one isolated step; see `SafeNSoundStore.finishReminder`).
    func finishReminder(day: SafeNSoundLocalDate?, sentAt: Timestamp?) {
        user.reminderClaimedAt = nil
        if let day, (user.lastReminderDay ?? "") < day.description { user.lastReminderDay = day.description }
        if let sentAt { user.lastReminderSentAt = sentAt }
    }

    /// Throws `rateLimited` if the last accepted call was less than `minimumSpacing` before `now`.
    static func checkRateLimit(_ user: SafeNSoundUser, now: Timestamp, minimumSpacing: Duration) throws(SafeNSoundError) {
        guard let last = user.lastHeartbeatCallAt else { return }
        let elapsed = now - last
        if elapsed < minimumSpacing {
            let remainingNanoseconds = (minimumSpacing - elapsed).nanoseconds
            let retryAfterSeconds = (remainingNanoseconds + 999_999_999) / 1_000_000_000
            throw .rateLimited(userId: user.userId, retryAfterSeconds: retryAfterSeconds)
        }
    }
}
