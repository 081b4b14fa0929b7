/// The `scheduled_alerts` collection: creation, the due query, cancellation and transactional claims.
///
/// A claim moves one alert from `scheduled` to `sending` in one isolated step, as a Firestore
/// transaction would, so two overlapping sender runs can never both send it.
actor SafeNSoundAlertQueue: DomainActor {
    nonisolated let executor: any SerialExecutor
    private var alerts: [String: SafeNSoundScheduledAlert] = [:]
    /// Ids of alerts in status `scheduled` or `sending`, for the due query and per-user cancel.
    private var openIds: Set<String> = []
    private var openIdsByUser: [String: [String]] = [:]
    /// Open alerts whose `scheduledFor` had not come at the last due query, earliest first from
    /// `notYetDueHead`; closed ones are dropped lazily when they reach the head.
    private var notYetDue: [(scheduledFor: Timestamp, alertId: String)] = []
    private var notYetDueHead = 0
    /// Open alerts whose `scheduledFor` had come at some due query: the due query reads only
    /// these, not every open alert (each 2-minute run cost O(open alerts) before).
    private var dueOpenIds: Set<String> = []
    private var randomIds: any RandomNumberGenerator

    init(environment: DomainEnvironment) {
        self.executor = environment.makeExecutor(label: "safensound/scheduled_alerts")
        self.randomIds = environment.randomStream("safensound.alert-ids")
    }

    /// `create()` with a fixed id: false (ALREADY_EXISTS) if an alert with this id exists in any status.
    func createIfAbsent(_ alert: SafeNSoundScheduledAlert) -> Bool {
        precondition(alert.status == .scheduled, "new alerts start scheduled")
        if alerts[alert.alertId] != nil { return false }
        insert(alert)
        return true
    }

    /// `add()` with a random id, as the literal design does: always creates a new alert.
    func addWithRandomId(_ alert: SafeNSoundScheduledAlert) -> SafeNSoundScheduledAlert {
        var alert = alert
        alert.alertId = "\(alert.userId)_\(String(randomIds.next(), radix: 16))"
        precondition(alerts[alert.alertId] == nil, "random alert id collided")
        insert(alert)
        return alert
    }

    private func insert(_ alert: SafeNSoundScheduledAlert) {
        alerts[alert.alertId] = alert
        openIds.insert(alert.alertId)
        openIdsByUser[alert.userId, default: []].append(alert.alertId)
        // Alerts are mostly created in time order, so the insertion point is at or near the end.
        var index = notYetDue.count
        while index > notYetDueHead && notYetDue[index - 1].scheduledFor > alert.scheduledFor { index -= 1 }
        notYetDue.insert((alert.scheduledFor, alert.alertId), at: index)
    }

    /// Alerts with status `scheduled` and `scheduledFor <= now`, ordered by time then id.
    func dueAlerts(at now: Timestamp) -> [SafeNSoundScheduledAlert] {
        while notYetDueHead < notYetDue.count, notYetDue[notYetDueHead].scheduledFor <= now {
            let alertId = notYetDue[notYetDueHead].alertId
            notYetDueHead += 1
            if openIds.contains(alertId) { dueOpenIds.insert(alertId) }
        }
        if notYetDueHead > 1_024 && notYetDueHead * 2 > notYetDue.count {
            notYetDue.removeFirst(notYetDueHead)
            notYetDueHead = 0
        }
        return dueOpenIds.compactMap { alerts[$0] }
            .filter { $0.status == .scheduled && $0.scheduledFor <= now }
            .sorted { ($0.scheduledFor, $0.alertId) < ($1.scheduledFor, $1.alertId) }
    }

    /// The transactional claim: scheduled (or sending with an expired lease) → sending. Nil if lost.
    func claim(_ alertId: String, at now: Timestamp, lease: Duration) -> SafeNSoundScheduledAlert? {
        guard var alert = alerts[alertId] else { return nil }
        switch alert.status {
        case .scheduled:
            break
        case .sending:
            guard let claimedAt = alert.claimedAt, now - claimedAt >= lease else { return nil }
        case .sent, .cancelled:
            return nil
        }
        alert.status = .sending
        alert.claimedAt = now
        alerts[alertId] = alert
        return alert
    }

    /// Marks `recipient` delivered for `alertId` in one isolated step (idempotent).
    func recordDelivery(_ alertId: String, to recipient: String) {
        guard var alert = alerts[alertId] else { preconditionFailure("delivery for unknown alert \(alertId)") }
        guard !alert.deliveredTo.contains(recipient) else { return }
        alert.deliveredTo.append(recipient)
        alerts[alertId] = alert
    }

    /// Ends an alert's life as `sent` or `cancelled`, or returns a failed claim to `scheduled`.
    func finish(_ alertId: String, as status: SafeNSoundScheduledAlert.Status) {
        guard var alert = alerts[alertId] else { preconditionFailure("finishing unknown alert \(alertId)") }
        alert.status = status
        if status == .scheduled { alert.claimedAt = nil }
        alerts[alertId] = alert
        if status == .sent || status == .cancelled { close(alert) }
    }

    /// Moves an open (`scheduled` or claimed) alert to `due`, back in status `scheduled`; a closed one
    /// is left alone. The old queue entry stays; the due query filters on `scheduledFor`.
    func reschedule(_ alertId: String, to due: Timestamp) {
        guard var alert = alerts[alertId], alert.status == .scheduled || alert.status == .sending else { return }
        alert.status = .scheduled
        alert.claimedAt = nil
        alert.scheduledFor = due
        alerts[alertId] = alert
        var index = notYetDue.count
        while index > notYetDueHead && notYetDue[index - 1].scheduledFor > due { index -= 1 }
        notYetDue.insert((due, alertId), at: index)
    }

    /// Cancels every `scheduled` alert of `userId` (claimed ones are already on their way); returns how many.
    func cancelPending(userId: String) -> Int {
        guard let ids = openIdsByUser[userId] else { return 0 }
        var cancelled = 0
        for alertId in ids {
            guard var alert = alerts[alertId], alert.status == .scheduled else { continue }
            alert.status = .cancelled
            alerts[alertId] = alert
            close(alert)
            cancelled += 1
        }
        return cancelled
    }

    private func close(_ alert: SafeNSoundScheduledAlert) {
        openIds.remove(alert.alertId)
        dueOpenIds.remove(alert.alertId)
        openIdsByUser[alert.userId]?.removeAll { $0 == alert.alertId }
        if openIdsByUser[alert.userId]?.isEmpty == true { openIdsByUser[alert.userId] = nil }
    }

    func alert(_ alertId: String) -> SafeNSoundScheduledAlert? { alerts[alertId] }

    /// Every alert, ordered by creation time then id.
    func allAlerts() -> [SafeNSoundScheduledAlert] {
        alerts.values.sorted { ($0.createdAt, $0.alertId) < ($1.createdAt, $1.alertId) }
    }
}
