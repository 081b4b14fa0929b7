import SimulatedFirebase

/// The `scheduled_alerts` collection: creation, the due query, cancellation and transactional claims.
///
/// A claim moves one alert from `scheduled` to `sending` in one isolated step, as a Firestore
/// transaction would, so two overlapping sender runs can never both send it.
actor SafeNSoundAlertQueue: DomainActor {
    nonisolated let executor: any SerialExecutor
    /// Every alert ever created, in creation order. An alert is found by its id once per call
    /// (`slots`) and then addressed by its index (its slot): the bookkeeping below hashes small
    /// integers, not ids of 40-odd bytes, and an update writes the alert in place.
    private var alerts: [SafeNSoundScheduledAlert] = []
    private var slots: [String: Int] = [:]
    /// Per slot: status `scheduled` or `sending` as of the last close (the due query and
    /// per-user cancel see only these). Kept apart from `status`, which a late `finish` may
    /// set back to `scheduled` on an alert already closed; that alert stays closed.
    private var isOpen: [Bool] = []
    private var openSlotsByUser: [String: [Int]] = [:]
    /// Open alerts whose `scheduledFor` had not come at the last due query, earliest first from
    /// `notYetDueHead`; closed ones are dropped lazily when they reach the head.
    private var notYetDue: [(scheduledFor: Timestamp, slot: Int)] = []
    private var notYetDueHead = 0
    /// Open alerts whose `scheduledFor` had come at some due query: the due query reads only
    /// these, not every open alert (each 2-minute run cost O(open alerts) before).
    private var dueOpenSlots: Set<Int> = []
    private var randomIds: any RandomNumberGenerator

    init(environment: DomainEnvironment) {
        self.executor = environment.makeExecutor(label: "safensound/scheduled_alerts")
        self.randomIds = environment.randomStream("safensound.alert-ids")
    }

    /// `create()` with a fixed id: false (ALREADY_EXISTS) if an alert with this id exists in any status.
    func createIfAbsent(_ alert: SafeNSoundScheduledAlert) -> Bool {
        precondition(alert.status == .scheduled, "new alerts start scheduled")
        let next = alerts.count
        // One hash: the subscript with a default inserts `next` when the id is new.
        let slot = Self.claimSlot(&slots[alert.alertId, default: next])
        guard slot == next else { return false }
        append(alert)
        return true
    }

    private static func claimSlot(_ slot: inout Int) -> Int { slot }

    /// `add()` with a random id, as the literal design does: always creates a new alert.
    func addWithRandomId(_ alert: SafeNSoundScheduledAlert) -> SafeNSoundScheduledAlert {
        var alert = alert
        alert.alertId = "\(alert.userId)_\(String(randomIds.next(), radix: 16))"
        precondition(slots[alert.alertId] == nil, "random alert id collided")
        slots[alert.alertId] = alerts.count
        append(alert)
        return alert
    }

    /// Stores a new alert in the next slot (its id already maps there).
    private func append(_ alert: SafeNSoundScheduledAlert) {
        let slot = alerts.count
        assert(slots[alert.alertId] == slot, "the id maps to the new slot")
        alerts.append(alert)
        isOpen.append(true)
        openSlotsByUser[alert.userId, default: []].append(slot)
        enqueueNotYetDue(slot, at: alert.scheduledFor)
    }

    /// Alerts are mostly created in time order, so the insertion point is at or near the end.
    private func enqueueNotYetDue(_ slot: Int, at due: Timestamp) {
        var index = notYetDue.count
        while index > notYetDueHead && notYetDue[index - 1].scheduledFor > due { index -= 1 }
        notYetDue.insert((due, slot), at: index)
    }

    /// Alerts with status `scheduled`, or `sending` (a sender may have died holding the claim), and
    /// `scheduledFor <= now`, ordered by time then id.
    func dueAlerts(at now: Timestamp) -> [SafeNSoundScheduledAlert] {
        while notYetDueHead < notYetDue.count, notYetDue[notYetDueHead].scheduledFor <= now {
            let slot = notYetDue[notYetDueHead].slot
            notYetDueHead += 1
            if isOpen[slot] { dueOpenSlots.insert(slot) }
        }
        if notYetDueHead > 1_024 && notYetDueHead * 2 > notYetDue.count {
            notYetDue.removeFirst(notYetDueHead)
            notYetDueHead = 0
        }
        // A `sending` alert is one a sender claimed: it may have died holding it (`claim` takes it
        // only past the lease).
        return dueOpenSlots.filter { (alerts[$0].status == .scheduled || alerts[$0].status == .sending) && alerts[$0].scheduledFor <= now }
            .map { alerts[$0] }
            .sorted { ($0.scheduledFor, $0.alertId) < ($1.scheduledFor, $1.alertId) }
    }

    /// The transactional claim: scheduled (or sending with an expired lease) → sending. Nil if lost.
    func claim(_ alertId: String, at now: Timestamp, lease: Duration) -> SafeNSoundScheduledAlert? {
        guard let slot = slots[alertId] else { return nil }
        switch alerts[slot].status {
        case .scheduled:
            break
        case .sending:
            guard let claimedAt = alerts[slot].claimedAt, now - claimedAt >= lease else { return nil }
        case .sent, .cancelled, .failed:
            return nil
        }
        alerts[slot].status = .sending
        alerts[slot].claimedAt = now
        return alerts[slot]
    }

    /// Marks `recipient` delivered for `alertId` in one isolated step (idempotent).
    func recordDelivery(_ alertId: String, to recipient: String) {
        guard let slot = slots[alertId] else { preconditionFailure("delivery for unknown alert \(alertId)") }
        guard !alerts[slot].deliveredTo.contains(recipient) else { return }
        alerts[slot].deliveredTo.append(recipient)
    }

    /// Ends an alert's life as `sent` or `cancelled`, or returns a failed claim to `scheduled`.
    func finish(_ alertId: String, as status: SafeNSoundScheduledAlert.Status) {
        guard let slot = slots[alertId] else { preconditionFailure("finishing unknown alert \(alertId)") }
        alerts[slot].status = status
        if status == .scheduled { alerts[slot].claimedAt = nil }
        if status == .sent || status == .cancelled || status == .failed { close(slot) }
    }

    /// A failed attempt: counts it and returns the alert to `scheduled`, at `retryAt` if given.
    func retry(_ alertId: String, at retryAt: Timestamp?) {
        guard let slot = slots[alertId], alerts[slot].status == .scheduled || alerts[slot].status == .sending else { return }
        alerts[slot].failedAttempts += 1
        alerts[slot].status = .scheduled
        alerts[slot].claimedAt = nil
        if let retryAt {
            alerts[slot].scheduledFor = retryAt
            enqueueNotYetDue(slot, at: retryAt)
        }
    }

    /// Moves an open (`scheduled` or claimed) alert to `due`, back in status `scheduled`; a closed one
    /// is left alone. The old queue entry stays; the due query filters on `scheduledFor`.
    func reschedule(_ alertId: String, to due: Timestamp) {
        guard let slot = slots[alertId], alerts[slot].status == .scheduled || alerts[slot].status == .sending else { return }
        alerts[slot].status = .scheduled
        alerts[slot].claimedAt = nil
        alerts[slot].scheduledFor = due
        enqueueNotYetDue(slot, at: due)
    }

    /// Cancels every `scheduled` alert of `userId` (claimed ones are already on their way); returns how many.
    func cancelPending(userId: String) -> Int {
        guard let open = openSlotsByUser[userId] else { return 0 }
        var cancelled = 0
        for slot in open where alerts[slot].status == .scheduled {
            alerts[slot].status = .cancelled
            close(slot)
            cancelled += 1
        }
        return cancelled
    }

    private func close(_ slot: Int) {
        isOpen[slot] = false
        dueOpenSlots.remove(slot)
        // One hash: through the entry's index, not three subscripts.
        guard let entry = openSlotsByUser.index(forKey: alerts[slot].userId) else { return }
        openSlotsByUser.values[entry].removeAll { $0 == slot }
        if openSlotsByUser.values[entry].isEmpty { openSlotsByUser.remove(at: entry) }
    }

    func alert(_ alertId: String) -> SafeNSoundScheduledAlert? { slots[alertId].map { alerts[$0] } }

    /// Every alert, ordered by creation time then id.
    func allAlerts() -> [SafeNSoundScheduledAlert] {
        alerts.sorted { ($0.createdAt, $0.alertId) < ($1.createdAt, $1.alertId) }
    }
}
