import SimulatedFirebase

/// SafeNSound's backend: the `recordHeartbeat` callable and the two scheduled functions
/// (`checkMissedHeartbeats` every 30 min, `processScheduledAlerts` every 2 min).
///
/// Users and alerts live in the store (actors, or backend documents), and so does each user's
/// `nextCheckDue`, which lets the 30-minute check visit only users whose next deadline is near.
/// An app value holds no state of its own: like a Cloud Functions instance, a fresh one over the
/// same store does the same work. Handlers read time from `environment.clock` and nothing else.
public final class SafeNSoundApp: Sendable {
    /// The clock, executors and randomness the functions use.
    public let environment: DomainEnvironment
    /// Thresholds, lead time, intervals and the variant.
    public let configuration: SafeNSoundConfiguration
    let messenger: any SafeNSoundMessenger
    /// Where users and alerts live (actors, or backend documents).
    public let store: any SafeNSoundStore
    let probe: SafeNSoundProbe
    /// The warm function instance's module-scope memory (`rate-limit-in-memory`: last call per user).
    let functionMemory: InstanceMemory
    /// The backend the functions are deployed on (`deployed(on:)`); nil for an app driven directly
    /// on an environment (benchmarks, timelines), which has no devices.
    public let backend: Backend?

    /// Builds the app on `store` (default: `SafeNSoundActorStore`), sending through `messenger`.
    public convenience init(
        environment: DomainEnvironment,
        configuration: SafeNSoundConfiguration = SafeNSoundConfiguration(),
        messenger: any SafeNSoundMessenger,
        store: (any SafeNSoundStore)? = nil
    ) {
        self.init(environment: environment, configuration: configuration, messenger: messenger, store: store, probe: SafeNSoundProbe())
    }

    package init(
        environment: DomainEnvironment, configuration: SafeNSoundConfiguration,
        messenger: any SafeNSoundMessenger, store: (any SafeNSoundStore)? = nil, probe: SafeNSoundProbe,
        backend: Backend? = nil
    ) {
        self.environment = environment
        self.backend = backend
        self.configuration = configuration
        self.messenger = messenger
        self.probe = probe
        self.functionMemory = InstanceMemory(env: environment, label: "safensound-functions")
        self.store = store ?? SafeNSoundActorStore(environment: environment, checkSlotWidth: configuration.missedHeartbeatCheckInterval)
    }

    /// The design that runs (`configuration.variant`).
    public var variant: SafeNSoundVariant { configuration.variant }

    private func deadlines(of user: SafeNSoundUser) -> SafeNSoundDeadlines {
        SafeNSoundDeadlines.of(
            user, preNotificationLeadHours: configuration.preNotificationLeadHours,
            wallClock: variant == .wallClockThreshold)
    }

    // MARK: Onboarding

    /// Creates the user's document (onboarding); `lastHeartbeat` counts as the first check-in. With
    /// an `email`, an active account onboarded earlier with the same email (left by a reinstall,
    /// which gets a new anonymous uid) is retired (careful design; see docs/domain.md).
    public func registerUser(_ user: SafeNSoundUser) async throws(SafeNSoundError) {
        guard configuration.allowedThresholdHours.contains(user.checkInThresholdHours) else {
            throw .invalidThreshold(hours: user.checkInThresholdHours, allowedHours: configuration.allowedThresholdHours)
        }
        guard SafeNSoundLastCheckInFormatter.isKnownTimeZone(user.timeZoneIdentifier) else {
            throw .unknownTimeZone(identifier: user.timeZoneIdentifier)
        }
        guard !user.emergencyContactEmails.isEmpty else { throw .noEmergencyContacts(userId: user.userId) }
        try await store.insertUser(user)
        await store.scheduleCheck(user.userId, at: deadlines(of: user).preNotificationDue)
        if variant != .reinstallOrphansAccount, let email = user.email {
            // A reinstall signs in with a new anonymous uid: the person's old account, found by
            // their email, is retired (with its pending alerts), so it cannot email their contacts
            // about a check-in they are now making on this account.
            for orphan in await store.activeUsers(withEmail: email, except: user.userId) {
                if await store.retire(userId: orphan, supersededBy: user.userId) {
                    _ = await store.cancelPendingAlerts(userId: orphan)
                }
            }
        }
    }

    /// Changes `checkInThreshold`; the new window is checked from the current `lastHeartbeat`.
    /// Alerts already created for this window move to the new deadlines (raised: later, with the
    /// new hours in the text; lowered: earlier), and the check is asked to look again by then.
    public func setCheckInThreshold(userId: String, hours: Int) async throws(SafeNSoundError) {
        guard configuration.allowedThresholdHours.contains(hours) else {
            throw .invalidThreshold(hours: hours, allowedHours: configuration.allowedThresholdHours)
        }
        let updated = try await store.setThreshold(userId: userId, hours: hours)
        let due = deadlines(of: updated)
        if variant != .randomAlertId {
            for kind in [SafeNSoundScheduledAlert.Kind.preNotification, .emailAlert] {
                let alertId = SafeNSoundScheduledAlert.deterministicId(userId: userId, windowLastHeartbeat: updated.lastHeartbeat, kind: kind)
                await store.rescheduleAlert(alertId, to: kind == .emailAlert ? due.emailDue : due.preNotificationDue)
            }
        }
        await store.scheduleCheck(userId, at: due.preNotificationDue)
    }

    /// Turns monitoring off or on (`isActive`); inactive users get no alerts.
    public func setActive(userId: String, _ isActive: Bool) async throws(SafeNSoundError) {
        try await store.setActive(userId: userId, isActive)
        if isActive { await store.scheduleCheck(userId, at: environment.clock.now) }
    }

    /// Replaces the user's emergency contacts (Settings: add, remove or edit one). At least one
    /// must remain. An email alert goes to the list as it is when each email is sent: one already
    /// on its way to a contact cannot be recalled, but the sender re-reads the list before each
    /// further contact (a removed contact gets nothing more, an added one is emailed).
    public func setEmergencyContacts(userId: String, _ emails: [String]) async throws(SafeNSoundError) {
        guard !emails.isEmpty else { throw .noEmergencyContacts(userId: userId) }
        try await store.setEmergencyContacts(userId: userId, emails)
    }

    /// The app's launch-time push-token registration (§ Error Handling, Invalid FCM Token: "iOS:
    /// Re-register FCM token on next app launch"): sets `fcmToken`. A pre-notification the sender
    /// parked because the old token was invalid (see `processScheduledAlerts`) goes out now. The
    /// token write comes before the read of the alert, and the sender parks before it re-reads the
    /// token, so whichever of the two runs second sees the other's write: a park racing this
    /// registration cannot leave the push parked with a good token.
    public func registerPushToken(userId: String, token: String) async throws(SafeNSoundError) {
        guard !token.isEmpty else { throw .pushTokenInvalid(token: token) }
        let updated = try await store.setPushToken(userId: userId, token: token)
        let due = deadlines(of: updated)
        let alertId = SafeNSoundScheduledAlert.deterministicId(userId: userId, windowLastHeartbeat: updated.lastHeartbeat, kind: .preNotification)
        if let parked = await store.alerts(of: userId).first(where: { $0.alertId == alertId }),
           parked.status == .scheduled, parked.scheduledFor > due.preNotificationDue {
            await store.rescheduleAlert(alertId, to: max(environment.clock.now, due.preNotificationDue))
        }
    }

    /// The user's document, nil if they never onboarded.
    public func user(_ userId: String) async -> SafeNSoundUser? {
        await store.user(userId)
    }

    /// Every scheduled alert ever created, ordered by creation time then id.
    public func alerts() async -> [SafeNSoundScheduledAlert] { await store.allAlerts() }

    /// Every scheduled alert of `userId`, ordered by creation time then id.
    public func alerts(of userId: String) async -> [SafeNSoundScheduledAlert] { await store.alerts(of: userId) }

    // MARK: recordHeartbeat (callable)

    /// The `recordHeartbeat` callable.
    ///
    /// The user is looked up by the authenticated uid (`request.auth.uid`), never by `fcmToken`:
    /// tokens rotate, can be stale on a reinstalled device, and are not a credential, so a token
    /// lookup could record a heartbeat for the wrong person. A `userId` in the request must match.
    public func recordHeartbeat(
        authenticatedUserId: String?, request: SafeNSoundHeartbeatRequest
    ) async throws(SafeNSoundError) -> SafeNSoundHeartbeatResponse {
        guard let userId = authenticatedUserId else { throw .unauthenticated }
        if let requested = request.userId, requested != userId {
            throw .userIdMismatch(authenticatedUserId: userId, requestedUserId: requested)
        }
        guard SafeNSoundLastCheckInFormatter.isKnownTimeZone(request.timeZoneIdentifier) else {
            throw .unknownTimeZone(identifier: request.timeZoneIdentifier)
        }
        let now = environment.clock.now
        let updated: SafeNSoundUser
        if variant == .rateLimitInMemory {
            let spacing = configuration.heartbeatMinimumSpacing
            guard await functionMemory.claimAcrossAwait(userId, at: now, spacing: spacing) else {
                throw .rateLimited(userId: userId, retryAfterSeconds: (spacing.nanoseconds + 999_999_999) / 1_000_000_000)
            }
            updated = try await store.applyHeartbeat(userId: userId, at: now, timeZoneIdentifier: request.timeZoneIdentifier)
        } else if variant == .readThenWriteRateLimit {
            // Literal design: read the user, check, write the heartbeat record, then update the user.
            guard let before = await store.user(userId) else { throw .userNotFound(userId: userId) }
            try SafeNSoundCheckInAccount.checkRateLimit(before, now: now, minimumSpacing: configuration.heartbeatMinimumSpacing)
            await probe.betweenRateLimitReadAndWrite(userId)
            updated = try await store.applyHeartbeat(userId: userId, at: now, timeZoneIdentifier: request.timeZoneIdentifier)
        } else {
            await probe.betweenRateLimitReadAndWrite(userId)
            let lead = configuration.preNotificationLeadHours, wallClock = variant == .wallClockThreshold
            updated = try await store.recordHeartbeatAtomically(
                userId: userId, at: now, timeZoneIdentifier: request.timeZoneIdentifier,
                minimumSpacing: configuration.heartbeatMinimumSpacing,
                checkAt: { SafeNSoundDeadlines.of($0, preNotificationLeadHours: lead, wallClock: wallClock).preNotificationDue })
        }
        if variant == .rateLimitInMemory || variant == .readThenWriteRateLimit {
            await store.scheduleCheck(userId, at: deadlines(of: updated).preNotificationDue)
        }
        let cancelled = await store.cancelPendingAlerts(userId: userId)
        return SafeNSoundHeartbeatResponse(success: true, lastHeartbeat: updated.lastHeartbeat, cancelledAlertCount: cancelled)
    }

    // MARK: checkMissedHeartbeats (every 30 min)

    /// How long the 30-minute check holds a user it took: past its run's longest life (the
    /// 540 s timeout) and a minute, so the next run after a run that died takes the user again.
    static let checkLease = Functions.maxTimeout + .seconds(60)

    /// The 30-minute check. Careful design: visits users whose next deadline falls before the next
    /// run, and creates each alert with its exact due time and a deterministic id, so the 2-minute
    /// sender sends it on time and a re-run (or a duplicate tick) creates nothing new. A user taken
    /// is leased, not removed, until handled: a run that dies mid-way leaves the rest to the next.
    @discardableResult
    public func checkMissedHeartbeats() async -> SafeNSoundCheckReport {
        let now = environment.clock.now
        let late = variant == .latePreNotification
        let horizon = late ? now : now + configuration.missedHeartbeatCheckInterval
        var report = SafeNSoundCheckReport()
        let lease: Duration? = variant == .checkTakesForGood ? nil : Self.checkLease
        for (userId, taken) in await store.takeDueChecks(through: horizon, now: now, lease: lease) {
            guard let user = await store.user(userId) else { continue }
            report.visitedUserCount += 1
            guard user.isActive else {
                if lease != nil { await store.finishCheck(userId, taken: taken, next: nil) }
                continue
            }
            await probe.betweenCheckReadAndCreate(userId)
            let due = deadlines(of: user)
            let preMeaningful = due.preNotificationDue < due.emailDue && now < due.emailDue
            if due.preNotificationDue <= horizon && preMeaningful {
                if let id = await createAlert(.preNotification, for: user, dueAt: late ? now : due.preNotificationDue, now: now) {
                    report.createdAlertIds.append(id)
                }
            }
            if due.emailDue <= horizon {
                if let id = await createAlert(.emailAlert, for: user, dueAt: late ? now : due.emailDue, now: now) {
                    report.createdAlertIds.append(id)
                }
            }
            let nextVisit: Timestamp?
            if variant == .randomAlertId && due.preNotificationDue <= horizon {
                nextVisit = now + configuration.missedHeartbeatCheckInterval  // the literal design scans everyone every run
            } else if due.emailDue <= horizon {
                nextVisit = nil  // both alerts of this window exist; the next heartbeat re-indexes the user
            } else if due.preNotificationDue <= horizon {
                nextVisit = due.emailDue
            } else {
                nextVisit = due.preNotificationDue
            }
            if lease != nil {
                await store.finishCheck(userId, taken: taken, next: nextVisit)
            } else if let nextVisit {
                await store.scheduleCheck(userId, at: nextVisit)
            }
        }
        return report
    }

    private func createAlert(
        _ kind: SafeNSoundScheduledAlert.Kind, for user: SafeNSoundUser, dueAt: Timestamp, now: Timestamp
    ) async -> String? {
        var alert = SafeNSoundScheduledAlert(
            alertId: SafeNSoundScheduledAlert.deterministicId(userId: user.userId, windowLastHeartbeat: user.lastHeartbeat, kind: kind),
            userId: user.userId, kind: kind, scheduledFor: dueAt, status: .scheduled, createdAt: now,
            windowLastHeartbeat: user.lastHeartbeat, claimedAt: nil)
        if variant == .contactsFixedAtCheck, kind == .emailAlert { alert.recipients = user.emergencyContactEmails }
        if variant == .randomAlertId {
            alert = await store.addAlertWithRandomId(alert)
            return alert.alertId
        }
        return await store.createAlertIfAbsent(alert) ? alert.alertId : nil
    }

    // MARK: processScheduledAlerts (every 2 min)

    /// The 2-minute sender. Careful design: claims each due alert in a transaction (so overlapping
    /// runs cannot both send it), then re-reads the user and cancels the alert if a heartbeat
    /// arrived after the alert's window began. A heartbeat landing after that re-check, while the
    /// message is in flight, cannot be stopped: the contact gets the email (documented limit).
    /// Delivery is tracked per recipient (`deliveredTo`): a retry sends only to contacts whose
    /// delivery was not confirmed; a provider time-out is retried (at-least-once).
    @discardableResult
    public func processScheduledAlerts() async -> SafeNSoundSenderReport {
        let now = environment.clock.now
        var report = SafeNSoundSenderReport()
        for alert in await store.dueAlerts(at: now) {
            if variant == .unclaimedSender {
                await sendUnclaimed(alert, at: now, report: &report)
                continue
            }
            guard let claimed = await store.claimAlert(alert.alertId, at: now, lease: configuration.alertClaimLease) else {
                report.lostClaimAlertIds.append(alert.alertId)
                continue
            }
            guard let user = await store.user(claimed.userId) else {
                await store.finishAlert(claimed.alertId, as: .cancelled)
                continue
            }
            if await withheld(claimed, of: user, at: now, report: &report) { continue }
            await deliver(claimed, to: user, at: now, report: &report)
        }
        return report
    }

    /// The literal design's sender: sends a due alert without claiming it or re-checking the user.
    private func sendUnclaimed(_ alert: SafeNSoundScheduledAlert, at now: Timestamp, report: inout SafeNSoundSenderReport) async {
        guard let user = await store.user(alert.userId) else { return }
        do throws(SafeNSoundError) {
            _ = try await send(alert, to: user, at: now)
            await store.finishAlert(alert.alertId, as: .sent)
            report.sentAlertIds.append(alert.alertId)
        } catch {
            report.failedAlertIds.append(alert.alertId)
        }
    }

    /// True when a claimed alert does not go out in this run: cancelled (a heartbeat or pause came
    /// first, or a pre-notification is too late), deferred to a raised threshold's deadline, or
    /// parked until the app registers a push token.
    private func withheld(
        _ claimed: SafeNSoundScheduledAlert, of user: SafeNSoundUser, at now: Timestamp, report: inout SafeNSoundSenderReport
    ) async -> Bool {
        if variant != .noHeartbeatRecheck {
            let checkedInSince = user.lastHeartbeat > claimed.windowLastHeartbeat
            let preNotificationTooLate = claimed.kind == .preNotification && deadlines(of: user).emailDue <= now
            if !user.isActive || checkedInSince || preNotificationTooLate {
                await store.finishAlert(claimed.alertId, as: .cancelled)
                report.cancelledAlertIds.append(claimed.alertId)
                return true
            }
        }
        // The threshold may have been raised since the check created this alert: under the
        // user's current threshold it is not due yet, so it waits for the new deadline (and
        // then says the new number of hours) instead of going out early with the wrong text.
        if claimed.windowLastHeartbeat == user.lastHeartbeat {
            let due = deadlines(of: user)
            let dueNow = claimed.kind == .emailAlert ? due.emailDue : due.preNotificationDue
            if dueNow > now {
                await store.rescheduleAlert(claimed.alertId, to: dueNow)
                report.deferredAlertIds.append(claimed.alertId)
                return true
            }
        }
        if claimed.kind == .preNotification, user.fcmToken.isEmpty {
            // No device to push to since FCM rejected the last token: park until the app registers one.
            await park(claimed, of: user)
            report.deferredAlertIds.append(claimed.alertId)
            return true
        }
        return false
    }

    /// Sends a claimed alert and records how it ended: sent, cancelled by a check-in during the
    /// send, or failed (a dead push token, or a delivery left for a retry).
    private func deliver(
        _ claimed: SafeNSoundScheduledAlert, to user: SafeNSoundUser, at now: Timestamp, report: inout SafeNSoundSenderReport
    ) async {
        do throws(SafeNSoundError) {
            guard try await send(claimed, to: user, at: now) else {
                // A check-in (or pause) landed while the emails went out: the rest are not sent.
                await store.finishAlert(claimed.alertId, as: .cancelled)
                report.cancelledAlertIds.append(claimed.alertId)
                return
            }
            await store.finishAlert(claimed.alertId, as: .sent)
            report.sentAlertIds.append(claimed.alertId)
        } catch .pushTokenInvalid(let token) {
            report.failedAlertIds.append(claimed.alertId)
            if variant == .invalidTokenDeactivates {
                // Literal design: "Mark user as inactive, log error".
                try? await store.setActive(userId: user.userId, false)
                await store.finishAlert(claimed.alertId, as: .scheduled)
            } else {
                // Careful: monitoring stays on (the email to the contacts still goes at the
                // threshold); only the dead token is cleared, and only if the app has not
                // registered a new one meanwhile.
                _ = await store.clearPushToken(userId: user.userId, ifStill: token)
                await park(claimed, of: user)
            }
        } catch {
            report.failedAlertIds.append(claimed.alertId)
            let failures = claimed.failedAttempts + 1
            if variant == .emailFailureMarksFailed, claimed.kind == .emailAlert, failures >= configuration.emailMaxAttempts {
                // Literal design: "mark alert as failed"; the backup service is optional, so none.
                await store.finishAlert(claimed.alertId, as: .failed)
            } else {
                await store.retryAlert(claimed.alertId, at: retryAt(afterFailures: failures, runStartedAt: now))
            }
        }
    }

    /// When an alert that failed `failures` times in a row is due again: the next run for the first
    /// failure (nil: it keeps its due time), then doubling waits up to `alertRetryMaxDelay`.
    private func retryAt(afterFailures failures: Int, runStartedAt now: Timestamp) -> Timestamp? {
        let period = configuration.alertSenderInterval
        var wait = period
        for _ in 1..<max(1, failures) where wait < configuration.alertRetryMaxDelay { wait = wait * 2 }
        wait = min(wait, max(period, configuration.alertRetryMaxDelay))
        return wait > period ? now + (wait - period) : nil
    }

    /// Parks a pre-notification that has no valid token to go to: moved to the window's email due
    /// time (where the sender cancels it as too late), unless the app registers a token first
    /// (`registerPushToken` moves it back). The token is re-read after the park: a registration
    /// committed in between would otherwise miss the parked alert.
    private func park(_ alert: SafeNSoundScheduledAlert, of user: SafeNSoundUser) async {
        await store.rescheduleAlert(alert.alertId, to: deadlines(of: user).emailDue)
        if let current = await store.user(user.userId), !current.fcmToken.isEmpty {
            await store.rescheduleAlert(alert.alertId, to: environment.clock.now)
        }
    }

    /// Sends `alert`; false when a check-in or pause seen between two contacts' emails stopped it
    /// (the careful design re-reads the user before each further contact: each email takes a
    /// SendGrid round trip, and a check-in committed meanwhile makes the next one a false alarm).
    private func send(_ alert: SafeNSoundScheduledAlert, to user: SafeNSoundUser, at now: Timestamp) async throws(SafeNSoundError) -> Bool {
        switch alert.kind {
        case .preNotification:
            let leadHours = min(configuration.preNotificationLeadHours, user.checkInThresholdHours)
            try await messenger.deliver(SafeNSoundMessage(
                channel: .push, userId: user.userId, recipient: user.fcmToken, subject: "Time to check in",
                body: "Tap now or we'll email your contact in \(leadHours) hours",
                alertId: alert.alertId, sentAt: now))
        case .emailAlert:
            let lastCheckIn = variant == .utcEmail
                ? SafeNSoundLastCheckInFormatter.formatInUTC(alert.windowLastHeartbeat)
                : SafeNSoundLastCheckInFormatter.format(alert.windowLastHeartbeat, timeZoneIdentifier: user.timeZoneIdentifier)
            let headline = "\(user.name) hasn't checked in for \(user.checkInThresholdHours) hours"
            // Careful: each contact the provider confirmed is recorded on the alert before the next
            // one is tried, so a retry after a 429 for one contact emails only the contacts still
            // missing. A time-out is not recorded (it may or may not have gone out): at-least-once.
            // The literal unclaimed sender records nothing and retries the alert whole.
            // Careful: the recipients are the user's contacts as they are before each email (the
            // re-read that checks for a check-in also picks up a contact edited in Settings meanwhile:
            // a removed contact gets nothing more, an added one gets the alert).
            let tracksRecipients = variant != .unclaimedSender
            let rechecks = variant != .unclaimedSender && variant != .noHeartbeatRecheck
            var contacts = alert.recipients.isEmpty ? user.emergencyContactEmails : alert.recipients
            var reached = Set(alert.deliveredTo)
            var first = true
            while true {
                if rechecks, !first {
                    guard let current = await store.user(user.userId), current.isActive,
                          current.lastHeartbeat <= alert.windowLastHeartbeat else { return false }
                    if alert.recipients.isEmpty { contacts = current.emergencyContactEmails }
                }
                guard let contact = contacts.first(where: { !reached.contains($0) }) else { break }
                reached.insert(contact)
                first = false
                try await messenger.deliver(SafeNSoundMessage(
                    channel: .email, userId: user.userId, recipient: contact, subject: headline,
                    body: "\(headline). Last check-in: \(lastCheckIn).",
                    alertId: alert.alertId, sentAt: now))
                if tracksRecipients { await store.recordDelivery(alert.alertId, to: contact) }
            }
        }
        return true
    }
}
