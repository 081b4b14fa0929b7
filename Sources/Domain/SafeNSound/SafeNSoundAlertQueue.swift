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
    }

    /// Alerts with status `scheduled` and `scheduledFor <= now`, ordered by time then id.
    func dueAlerts(at now: Timestamp) -> [SafeNSoundScheduledAlert] {
        openIds.compactMap { alerts[$0] }
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
        openIdsByUser[alert.userId]?.removeAll { $0 == alert.alertId }
        if openIdsByUser[alert.userId]?.isEmpty == true { openIdsByUser[alert.userId] = nil }
    }

    func alert(_ alertId: String) -> SafeNSoundScheduledAlert? { alerts[alertId] }

    /// Every alert, ordered by creation time then id.
    func allAlerts() -> [SafeNSoundScheduledAlert] {
        alerts.values.sorted { ($0.createdAt, $0.alertId) < ($1.createdAt, $1.alertId) }
    }
}
