import SimulatedFirebase

extension SafeNSoundApp {
    /// The daily reminder's scheduled function (deployed when `dailyReminderInterval` is set).
    public static let sendDailyRemindersName = "sendDailyReminders"

    /// Sets `dailyReminderEnabled` and `dailyReminderTime` (Settings; an admin write, the device
    /// writes the same fields through `SafeNSoundClient.setDailyReminder`).
    public func setDailyReminder(userId: String, enabled: Bool, time: SafeNSoundReminderTime?) async throws(SafeNSoundError) {
        try await store.setDailyReminder(userId: userId, enabled: enabled, time: time)
    }

    /// The daily reminder, a scheduled function every `dailyReminderInterval` (docs/domain.md,
    /// "SafeNSound daily reminder"). The seed names the fields, not the sender; the careful reading:
    /// for each user with reminders on, the reminder of local date D is due from
    /// `dailyReminderTime` on D in the user's `timezone` (a time the DST change skips or repeats is
    /// read as `SafeNSoundLocalCalendar` says) until `dailyReminderCatchUp` later. A due reminder is
    /// claimed in a transaction (reminders still on, `lastReminderDay` before D, no live claim), then
    /// skipped if the user checked in since D's local midnight, else pushed; `lastReminderDay = D`
    /// afterwards, so each local day gets at most one. A failed push releases the claim, and a later
    /// run within the catch-up retries it. `scheduledTime` is the tick the run belongs to (only the
    /// `reminder-local-clock-match` variant reads it).
    @discardableResult
    public func sendDailyReminders(scheduledTime: Timestamp? = nil) async -> SafeNSoundReminderReport {
        let now = environment.clock.now
        var report = SafeNSoundReminderReport()
        let users = await store.usersWithDailyReminder()
        for user in variant == .reminderQueryFirstPage ? Array(users.prefix(100)) : users {
            guard user.isActive, let time = user.dailyReminderTime else { continue }
            if variant == .reminderLocalClockMatch {
                // Literal: "is it hh:mm there now?" on the tick's time, no record of what was sent (the
                // check-in rule is the careful one: the flaw is only in finding the time).
                let minute = SafeNSoundLocalCalendar.minuteOfDay(at: scheduledTime ?? now, in: user.timeZoneIdentifier)
                let period = Int((configuration.dailyReminderInterval ?? .seconds(60)).nanoseconds / 60_000_000_000)
                guard minute >= time.minuteOfDay, minute < time.minuteOfDay + max(1, period) else { continue }
                let day = SafeNSoundLocalCalendar.localDate(of: scheduledTime ?? now, in: user.timeZoneIdentifier)
                if configuration.dailyReminderSkipsAfterCheckIn,
                   user.lastHeartbeat >= SafeNSoundLocalCalendar.startOfDay(day, in: user.timeZoneIdentifier) {
                    report.skippedUserIds.append(user.userId)
                    continue
                }
                if await pushReminder(to: user, day: day, at: now) == .sent { report.sentUserIds.append(user.userId) } else { report.failedUserIds.append(user.userId) }
                continue
            }
            guard let day = dueReminderDay(user, time: time, now: now) else { continue }
            guard let claimed = await store.claimReminder(userId: user.userId, day: day, at: now, lease: configuration.alertClaimLease) else {
                report.lostClaimUserIds.append(user.userId)
                continue
            }
            // The claim re-read the user: the time (or zone) may have changed since the query.
            guard claimed.isActive, let claimedTime = claimed.dailyReminderTime, dueReminderDay(claimed, time: claimedTime, now: now) == day else {
                await store.finishReminder(userId: user.userId, day: nil, sentAt: nil)
                continue
            }
            if configuration.dailyReminderSkipsAfterCheckIn,
               claimed.lastHeartbeat >= SafeNSoundLocalCalendar.startOfDay(day, in: claimed.timeZoneIdentifier) {
                await store.finishReminder(userId: user.userId, day: day, sentAt: nil)
                report.skippedUserIds.append(user.userId)
                continue
            }
            switch await pushReminder(to: claimed, day: day, at: now) {
            case .sent:
                await store.finishReminder(userId: user.userId, day: day, sentAt: now)
                report.sentUserIds.append(user.userId)
            case .noDevice:
                await store.finishReminder(userId: user.userId, day: day, sentAt: nil)
                report.skippedUserIds.append(user.userId)
            case .failed:
                await store.finishReminder(userId: user.userId, day: nil, sentAt: nil)
                report.failedUserIds.append(user.userId)
            }
        }
        return report
    }

    /// The local date whose reminder is due at `now`, nil if none: yesterday's or today's (a
    /// reminder late past midnight belongs to yesterday), not yet handled (`lastReminderDay`).
    func dueReminderDay(_ user: SafeNSoundUser, time: SafeNSoundReminderTime, now: Timestamp) -> SafeNSoundLocalDate? {
        let zone = variant == .reminderUTCTime ? "UTC" : user.timeZoneIdentifier
        let handled = user.lastReminderDay ?? ""
        let catchUp = configuration.dailyReminderCatchUp
        if variant == .reminderEvery24h, let last = user.lastReminderSentAt, now < last + .seconds(24 * 3600) + catchUp {
            // Literal: the next reminder is the last one + 24 h (found as the first was once that slot is missed).
            let due = last + .seconds(24 * 3600)
            let day = SafeNSoundLocalCalendar.localDate(of: due, in: zone)
            return due <= now && handled < day.description ? day : nil
        }
        let today = SafeNSoundLocalCalendar.localDate(of: now, in: zone)
        for day in [today.previous, today] where handled < day.description {
            let fire = SafeNSoundLocalCalendar.instant(of: time, on: day, in: zone)
            if fire <= now && now < fire + catchUp { return day }
        }
        return nil
    }

    enum ReminderPush { case sent, noDevice, failed }

    /// Pushes the reminder of `day` to the user's current token.
    private func pushReminder(to user: SafeNSoundUser, day: SafeNSoundLocalDate, at now: Timestamp) async -> ReminderPush {
        guard !user.fcmToken.isEmpty else { return .noDevice }
        do throws(SafeNSoundError) {
            try await messenger.deliver(SafeNSoundMessage(
                channel: .push, userId: user.userId, recipient: user.fcmToken, subject: "Time to check in",
                body: "Your daily SafeNSound check-in reminder", alertId: "reminder-\(user.userId)-\(day)", sentAt: now,
                purpose: .dailyReminder))
            return .sent
        } catch .pushTokenInvalid(let token) {
            // No device to remind until the app registers a new token (monitoring stays on).
            _ = await store.clearPushToken(userId: user.userId, ifStill: token)
            return .noDevice
        } catch {
            return .failed
        }
    }
}
