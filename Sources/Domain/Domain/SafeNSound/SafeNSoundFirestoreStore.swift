import SimulatedFirebase

/// SafeNSound's state as documents of the simulated backend (admin SDK, as Cloud Functions see it):
/// `users/{uid}`, `heartbeats/{uid}_{ns}` and `scheduled_alerts/{alertId}`.
///
/// The rate limit is a server transaction on `users/{uid}`; alert creation is `create()` on the
/// deterministic id (ALREADY_EXISTS = already there); a claim is a server transaction on the
/// alert. The due-alert query is `status == "scheduled" and scheduledFor <= now` on a composite
/// index, and a user's alerts are found by the `userId` field's index, so a run's cost follows the
/// alerts due, not the collection (the actor store is still the one for 100k-user timelines). The
/// check's work list is the users' `nextCheckDue` field (an indexed query `nextCheckDue <= horizon`),
/// so a fresh function instance finds the same work.
public struct SafeNSoundFirestoreStore: SafeNSoundStore {
    /// The Firestore holding `users` and `scheduled_alerts`.
    public let firestore: Firestore

    /// A store over `firestore`'s `users` and `scheduled_alerts` collections.
    public init(firestore: Firestore) { self.firestore = firestore }

    static func userPath(_ userId: String) -> DocumentPath { DocumentPath("users", userId) }
    static func alertPath(_ alertId: String) -> DocumentPath { DocumentPath("scheduled_alerts", alertId) }

    // MARK: Mapping

    static func fields(_ user: SafeNSoundUser) -> Fields {
        var fields: Fields = [
            "userId": .string(user.userId), "name": .string(user.name), "fcmToken": .string(user.fcmToken),
            "emergencyContacts": .array(user.emergencyContactEmails.map(Value.string)),
            "checkInThreshold": .int(Int64(user.checkInThresholdHours)), "lastHeartbeat": .timestamp(user.lastHeartbeat),
            "timezone": .string(user.timeZoneIdentifier), "isActive": .bool(user.isActive),
            "heartbeatCount": .int(Int64(user.heartbeatCount)),
        ]
        if let last = user.lastHeartbeatCallAt { fields["lastHeartbeatCallAt"] = .timestamp(last) }
        if let email = user.email { fields["email"] = .string(email) }
        if let successor = user.supersededBy { fields["supersededBy"] = .string(successor) }
        // Reminder fields only once the user set them, so documents of users who never did are as before.
        if user.dailyReminderEnabled || user.dailyReminderTime != nil { fields["dailyReminderEnabled"] = .bool(user.dailyReminderEnabled) }
        if let time = user.dailyReminderTime { fields["dailyReminderTime"] = reminderTimeValue(time) }
        if let day = user.lastReminderDay { fields["lastReminderDay"] = .string(day) }
        if let sentAt = user.lastReminderSentAt { fields["lastReminderSentAt"] = .timestamp(sentAt) }
        if let claimedAt = user.reminderClaimedAt { fields["reminderClaimedAt"] = .timestamp(claimedAt) }
        return fields
    }

    static func user(_ fields: Fields?) -> SafeNSoundUser? {
        guard let fields, let userId = fields["userId"]?.stringValue, let last = fields["lastHeartbeat"]?.timestampValue else { return nil }
        var user = SafeNSoundUser(
            userId: userId, name: fields["name"]?.stringValue ?? "", fcmToken: fields["fcmToken"]?.stringValue ?? "",
            emergencyContactEmails: (fields["emergencyContacts"]?.arrayValue ?? []).compactMap(\.stringValue),
            checkInThresholdHours: Int(fields["checkInThreshold"]?.intValue ?? 72), lastHeartbeat: last,
            timeZoneIdentifier: fields["timezone"]?.stringValue ?? "UTC", isActive: fields["isActive"]?.boolValue ?? true)
        user.lastHeartbeatCallAt = fields["lastHeartbeatCallAt"]?.timestampValue
        user.heartbeatCount = Int(fields["heartbeatCount"]?.intValue ?? 0)
        user.email = fields["email"]?.stringValue
        user.supersededBy = fields["supersededBy"]?.stringValue
        user.dailyReminderEnabled = fields["dailyReminderEnabled"]?.boolValue ?? false
        user.dailyReminderTime = reminderTime(fields["dailyReminderTime"])
        user.lastReminderDay = fields["lastReminderDay"]?.stringValue
        user.lastReminderSentAt = fields["lastReminderSentAt"]?.timestampValue
        user.reminderClaimedAt = fields["reminderClaimedAt"]?.timestampValue
        return user
    }

    /// `{ hour, minute }` as the schema stores `dailyReminderTime`.
    public static func reminderTimeValue(_ time: SafeNSoundReminderTime) -> Value {
        .map(["hour": .int(Int64(time.hour)), "minute": .int(Int64(time.minute))])
    }

    /// A stored `dailyReminderTime`, nil if absent or malformed (a client wrote it; rules do not check its shape).
    public static func reminderTime(_ value: Value?) -> SafeNSoundReminderTime? {
        guard let map = value?.mapValue, let hour = map["hour"]?.intValue, let minute = map["minute"]?.intValue,
              let hours = Int(exactly: hour), let minutes = Int(exactly: minute) else { return nil }
        return SafeNSoundReminderTime(hour: hours, minute: minutes)
    }

    static func fields(_ alert: SafeNSoundScheduledAlert) -> Fields {
        var fields: Fields = [
            "userId": .string(alert.userId), "type": .string(alert.kind.rawValue), "scheduledFor": .timestamp(alert.scheduledFor),
            "status": .string(alert.status.rawValue), "createdAt": .timestamp(alert.createdAt),
            "windowLastHeartbeat": .timestamp(alert.windowLastHeartbeat),
        ]
        if let claimedAt = alert.claimedAt { fields["claimedAt"] = .timestamp(claimedAt) }
        if !alert.deliveredTo.isEmpty { fields["deliveredTo"] = .array(alert.deliveredTo.map(Value.string)) }
        if alert.failedAttempts > 0 { fields["failedAttempts"] = .int(Int64(alert.failedAttempts)) }
        if !alert.recipients.isEmpty { fields["recipients"] = .array(alert.recipients.map(Value.string)) }
        return fields
    }

    static func alert(_ snapshot: DocumentSnapshot) -> SafeNSoundScheduledAlert? {
        guard let userId = snapshot["userId"]?.stringValue,
              let kind = snapshot["type"]?.stringValue.flatMap(SafeNSoundScheduledAlert.Kind.init(rawValue:)),
              let status = snapshot["status"]?.stringValue.flatMap(SafeNSoundScheduledAlert.Status.init(rawValue:)),
              let scheduledFor = snapshot["scheduledFor"]?.timestampValue, let createdAt = snapshot["createdAt"]?.timestampValue,
              let window = snapshot["windowLastHeartbeat"]?.timestampValue else { return nil }
        var alert = SafeNSoundScheduledAlert(
            alertId: snapshot.id, userId: userId, kind: kind, scheduledFor: scheduledFor, status: status,
            createdAt: createdAt, windowLastHeartbeat: window, claimedAt: snapshot["claimedAt"]?.timestampValue)
        alert.deliveredTo = (snapshot["deliveredTo"]?.arrayValue ?? []).compactMap(\.stringValue)
        alert.failedAttempts = Int(snapshot["failedAttempts"]?.intValue ?? 0)
        alert.recipients = (snapshot["recipients"]?.arrayValue ?? []).compactMap(\.stringValue)
        return alert
    }

    private static func wrap(_ error: any Error, userId: String) -> SafeNSoundError {
        if let error = error as? SafeNSoundError { return error }
        return .deliveryFailed(recipient: "users/\(userId)", reason: "\(error)")
    }

    // MARK: Users

    /// Creates the user's document; `userAlreadyRegistered` if it exists.
    public func insertUser(_ user: SafeNSoundUser) async throws(SafeNSoundError) {
        do {
            try await firestore.create(Self.userPath(user.userId), Self.fields(user))
        } catch .alreadyExists {
            throw .userAlreadyRegistered(userId: user.userId)
        } catch {
            throw .deliveryFailed(recipient: "users/\(user.userId)", reason: error.description)
        }
    }

    /// The user's document, nil if absent.
    public func user(_ userId: String) async -> SafeNSoundUser? { Self.user(await firestore.get(Self.userPath(userId)).fields) }

    /// Checks the 1-per-minute limit and records the heartbeat in one atomic step. Each call names
    /// itself (`lastHeartbeatCallId`): a user document that already holds this call's heartbeat
    /// means an earlier attempt committed and its answer was lost (MODEL_RULES §22), and the caller
    /// is told it landed instead of "too soon". (Two taps can reach the function in one instant, so
    /// the instant does not name a call.)
    public func recordHeartbeatAtomically(
        userId: String, at now: Timestamp, timeZoneIdentifier: String, minimumSpacing: Duration,
        checkAt: @Sendable (SafeNSoundUser) -> Timestamp
    ) async throws(SafeNSoundError) -> SafeNSoundUser {
        let call = firestore.newDocumentId()
        do {
            return try await firestore.runTransaction { transaction in
                let snapshot = try await transaction.get(Self.userPath(userId))
                guard var user = Self.user(snapshot.fields) else { throw SafeNSoundError.userNotFound(userId: userId) }
                if snapshot["lastHeartbeatCallId"] == .string(call) { return user }
                try SafeNSoundCheckInAccount.checkRateLimit(user, now: now, minimumSpacing: minimumSpacing)
                precondition(now >= user.lastHeartbeat, "heartbeats must not move lastHeartbeat backwards")
                user.lastHeartbeat = now
                user.lastHeartbeatCallAt = now
                user.timeZoneIdentifier = timeZoneIdentifier
                user.heartbeatCount += 1
                var fields = Self.fields(user)
                // Not part of the user: the check asked for (earliest wins) and a check run's lease.
                let check = checkAt(user)
                fields["nextCheckDue"] = .timestamp(snapshot["nextCheckDue"]?.timestampValue.map { min($0, check) } ?? check)
                // Claims held on the user stay as they are.
                for held in ["checkLeasedUntil", "checkLeaseHolder", "reminderClaimId"] { fields[held] = snapshot[held] }
                fields["lastHeartbeatCallId"] = .string(call)
                transaction.set(Self.userPath(userId), fields)
                transaction.create(DocumentPath("heartbeats", "\(userId)_\(now.unixNanoseconds)"), ["userId": .string(userId), "timestamp": .timestamp(now)])
                return user
            }
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// Records a heartbeat without any check (the write half of the literal read-then-write).
    public func applyHeartbeat(userId: String, at now: Timestamp, timeZoneIdentifier: String) async throws(SafeNSoundError) -> SafeNSoundUser {
        do {
            try await firestore.set(DocumentPath("heartbeats", "\(userId)_\(now.unixNanoseconds)"), ["userId": .string(userId), "timestamp": .timestamp(now)])
            let after = try await firestore.update(Self.userPath(userId), [
                "lastHeartbeat": .set(.timestamp(now)), "lastHeartbeatCallAt": .set(.timestamp(now)),
                "timezone": .set(.string(timeZoneIdentifier)), "heartbeatCount": .increment(1),
            ])
            guard let user = Self.user(after.fields) else { throw SafeNSoundError.userNotFound(userId: userId) }
            return user
        } catch BackendError.notFound {
            throw .userNotFound(userId: userId)
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// Sets `checkInThreshold` (hours) and returns the updated user.
    public func setThreshold(userId: String, hours: Int) async throws(SafeNSoundError) -> SafeNSoundUser {
        do {
            let after = try await firestore.update(Self.userPath(userId), ["checkInThreshold": .set(.int(Int64(hours)))])
            guard let user = Self.user(after.fields) else { throw SafeNSoundError.userNotFound(userId: userId) }
            return user
        } catch BackendError.notFound {
            throw .userNotFound(userId: userId)
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// Pauses or resumes monitoring (`isActive`).
    public func setActive(userId: String, _ isActive: Bool) async throws(SafeNSoundError) {
        do {
            try await firestore.update(Self.userPath(userId), ["isActive": .set(.bool(isActive))])
        } catch BackendError.notFound {
            throw .userNotFound(userId: userId)
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// Replaces `emergencyContacts` (Settings: add, remove, edit a contact).
    public func setEmergencyContacts(userId: String, _ emails: [String]) async throws(SafeNSoundError) {
        do {
            try await firestore.update(Self.userPath(userId), ["emergencyContacts": .set(.array(emails.map(Value.string)))])
        } catch BackendError.notFound {
            throw .userNotFound(userId: userId)
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// `where email == X` on the field's index, then the active ones other than `userId`.
    public func activeUsers(withEmail email: String, except userId: String) async -> [String] {
        await firestore.fetch("users", whereField: "email", isEqualTo: .string(email))
            .filter { $0.id != userId && $0["isActive"]?.boolValue != false }.map(\.id)
    }

    /// A server transaction on `users/{uid}`: if still active, `isActive = false` and `supersededBy`.
    public func retire(userId: String, supersededBy successor: String) async -> Bool {
        let path = Self.userPath(userId)
        let retired = try? await firestore.runTransaction { transaction -> Bool in
            let snapshot = try await transaction.get(path)
            guard snapshot.exists, snapshot["isActive"]?.boolValue != false else { return false }
            transaction.update(path, ["isActive": .set(.bool(false)), "supersededBy": .set(.string(successor))])
            return true
        }
        return retired ?? false
    }

    /// Sets `fcmToken` (the app's launch-time registration) and returns the updated user.
    public func setPushToken(userId: String, token: String) async throws(SafeNSoundError) -> SafeNSoundUser {
        do {
            let after = try await firestore.update(Self.userPath(userId), ["fcmToken": .set(.string(token))])
            guard let user = Self.user(after.fields) else { throw SafeNSoundError.userNotFound(userId: userId) }
            return user
        } catch BackendError.notFound {
            throw .userNotFound(userId: userId)
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// A server transaction on `users/{uid}`: clears `fcmToken` only if it is still `token`.
    public func clearPushToken(userId: String, ifStill token: String) async -> Bool {
        let path = Self.userPath(userId)
        let cleared = try? await firestore.runTransaction { transaction -> Bool in
            let snapshot = try await transaction.get(path)
            guard !token.isEmpty, snapshot["fcmToken"]?.stringValue == token else { return false }
            transaction.update(path, ["fcmToken": .set(.string(""))])
            return true
        }
        return cleared ?? false
    }

    // MARK: Due checks

    /// A server transaction on `users/{uid}`: lowers `nextCheckDue` to `due` (earliest wins). If it
    /// fails (contention beyond its attempts) a plain write sets it: a visit at `due` beats none.
    public func scheduleCheck(_ userId: String, at due: Timestamp) async {
        let path = Self.userPath(userId)
        do {
            try await firestore.runTransaction { transaction in
                let snapshot = try await transaction.get(path)
                guard snapshot.exists else { return }
                if let existing = snapshot["nextCheckDue"]?.timestampValue, existing <= due { return }
                transaction.update(path, ["nextCheckDue": .set(.timestamp(due))])
            }
        } catch {
            _ = try? await firestore.update(path, ["nextCheckDue": .set(.timestamp(due))])
        }
    }

    /// The query `nextCheckDue <= horizon`, then one server transaction per user that leases the
    /// entry (`checkLeasedUntil`) if it is still due and not leased, so overlapping runs split the
    /// users instead of both taking them, and a run that dies mid-way leaves its users to a run
    /// after the lease. A user whose transaction fails keeps the field and is taken by the next run.
    /// Each lease names its run (`checkLeaseHolder`): a lease this run's transaction committed
    /// while its answer was lost (MODEL_RULES §22) is found by the retry as its own.
    public func takeDueChecks(through horizon: Timestamp, now: Timestamp, lease: Duration?) async -> [(userId: String, due: Timestamp)] {
        // Served by the composite index on `nextCheckDue`: already ordered by due time, then id.
        // A single-field order: no index to deploy, so the query cannot be refused.
        let candidates = ((try? await firestore.fetch("users", orderedBy: "nextCheckDue", through: horizon)) ?? [])
            .compactMap { snapshot in snapshot["nextCheckDue"]?.timestampValue.map { (userId: snapshot.id, due: $0) } }
        var taken: [(userId: String, due: Timestamp)] = []
        let holder = firestore.newDocumentId()
        for candidate in candidates {
            let path = Self.userPath(candidate.userId)
            let due = try? await firestore.runTransaction { transaction -> Timestamp? in
                let snapshot = try await transaction.get(path)
                guard let due = snapshot["nextCheckDue"]?.timestampValue, due <= horizon else { return nil }
                if let held = snapshot["checkLeasedUntil"]?.timestampValue, held > now, snapshot["checkLeaseHolder"] != .string(holder) { return nil }
                if let lease {
                    transaction.update(path, ["checkLeasedUntil": .set(.timestamp(now + lease)), "checkLeaseHolder": .set(.string(holder))])
                } else {
                    transaction.update(path, ["nextCheckDue": .delete])
                }
                return due
            }
            if let due = due ?? nil { taken.append((candidate.userId, due)) }
        }
        return taken
    }

    /// A server transaction on `users/{uid}`: ends the lease, and clears `nextCheckDue` (or sets
    /// `next`) if it is still the instant taken; an earlier one asked for meanwhile stays. If it
    /// fails, `next` is asked for as `scheduleCheck` does and the lease runs out by itself.
    public func finishCheck(_ userId: String, taken due: Timestamp, next: Timestamp?) async {
        let path = Self.userPath(userId)
        do {
            try await firestore.runTransaction { transaction in
                let snapshot = try await transaction.get(path)
                guard snapshot.exists else { return }
                let current = snapshot["nextCheckDue"]?.timestampValue
                var value = current == due ? nil : current
                if let next { value = min(value ?? next, next) }
                transaction.update(path, [
                    "checkLeasedUntil": .delete, "checkLeaseHolder": .delete, "nextCheckDue": value.map { .set(.timestamp($0)) } ?? .delete,
                ])
            }
        } catch {
            if let next { await scheduleCheck(userId, at: next) }
        }
    }

    // MARK: Alerts

    /// `create()` with the alert's id: false if an alert with that id exists (ALREADY_EXISTS).
    public func createAlertIfAbsent(_ alert: SafeNSoundScheduledAlert) async -> Bool {
        do {
            try await firestore.create(Self.alertPath(alert.alertId), Self.fields(alert))
            return true
        } catch {
            // ALREADY_EXISTS, or the invocation was terminated (INTERNAL): either way nothing new.
            return false
        }
    }

    /// `add()` with a random id (the literal design).
    public func addAlertWithRandomId(_ alert: SafeNSoundScheduledAlert) async -> SafeNSoundScheduledAlert {
        var alert = alert
        // add() cannot collide; it fails only when the invocation was terminated, and then nothing
        // after it runs either: the alert is returned unwritten.
        if let path = try? await firestore.add("scheduled_alerts", Self.fields(alert)) { alert.alertId = path.id }
        return alert
    }

    /// Alerts with status `scheduled`, or `sending` (a sender may have died holding the claim), and
    /// `scheduledFor <= now`, ordered by time then id.
    public func dueAlerts(at now: Timestamp) async -> [SafeNSoundScheduledAlert] {
        // `where status == "scheduled" and scheduledFor <= now order by scheduledFor` on its composite
        // index: the cost is the alerts due, not every alert ever created.
        // `sending` too: a sender may have died holding the claim (`claimAlert` takes it only past
        // its lease), and such an alert would otherwise never be found again.
        var due: [SafeNSoundScheduledAlert] = []
        for status in [SafeNSoundScheduledAlert.Status.scheduled, .sending] {
            // Refused (FAILED_PRECONDITION) where the index is not deployed: the run finds nothing
            // and sends nothing, as the function failing in production.
            let found = try? await firestore.fetch(
                "scheduled_alerts", whereField: "status", isEqualTo: .string(status.rawValue), orderedBy: "scheduledFor", through: now)
            due += (found ?? []).compactMap(Self.alert)
        }
        return due.sorted { ($0.scheduledFor, $0.alertId) < ($1.scheduledFor, $1.alertId) }
    }

    /// scheduled (or sending with an expired lease) → sending, atomically; nil if another run has
    /// it. The claim names this call (`claimId`): a claim whose commit landed while its answer was
    /// lost (MODEL_RULES §22) is found by the retry as its own.
    public func claimAlert(_ alertId: String, at now: Timestamp, lease: Duration) async -> SafeNSoundScheduledAlert? {
        let holder = firestore.newDocumentId()
        return try? await firestore.runTransaction { transaction -> SafeNSoundScheduledAlert? in
            let snapshot = try await transaction.get(Self.alertPath(alertId))
            guard var alert = Self.alert(snapshot) else { return nil }
            switch alert.status {
            case .scheduled: break
            case .sending:
                guard snapshot["claimId"] == .string(holder) || alert.claimedAt.map({ now - $0 >= lease }) == true else { return nil }
            case .sent, .cancelled, .failed: return nil
            }
            alert.status = .sending
            alert.claimedAt = now
            var fields = Self.fields(alert)
            fields["claimId"] = .string(holder)
            transaction.set(Self.alertPath(alertId), fields)
            return alert
        } ?? nil
    }

    /// A server transaction on the alert: read `deliveredTo`, append `recipient` if absent, write.
    public func recordDelivery(_ alertId: String, to recipient: String) async {
        _ = try? await firestore.runTransaction { transaction -> Bool in
            guard var alert = Self.alert(try await transaction.get(Self.alertPath(alertId))) else { return false }
            guard !alert.deliveredTo.contains(recipient) else { return false }
            alert.deliveredTo.append(recipient)
            transaction.update(Self.alertPath(alertId), ["deliveredTo": .set(.array(alert.deliveredTo.map(Value.string)))])
            return true
        }
    }

    /// A server transaction on the alert: an open alert returns to `scheduled` at `due`.
    public func rescheduleAlert(_ alertId: String, to due: Timestamp) async {
        let scheduled = SafeNSoundScheduledAlert.Status.scheduled.rawValue, sending = SafeNSoundScheduledAlert.Status.sending.rawValue
        _ = try? await firestore.runTransaction { transaction in
            let current = try await transaction.get(Self.alertPath(alertId))
            guard let status = current["status"]?.stringValue, status == scheduled || status == sending else { return }
            transaction.update(Self.alertPath(alertId), [
                "status": .set(.string(scheduled)), "scheduledFor": .set(.timestamp(due)), "claimedAt": .delete,
            ])
        }
    }

    /// Closes the alert as `status` (sent, cancelled or failed).
    public func finishAlert(_ alertId: String, as status: SafeNSoundScheduledAlert.Status) async {
        var updates: FieldUpdates = ["status": .set(.string(status.rawValue))]
        if status == .scheduled { updates["claimedAt"] = .delete }
        _ = try? await firestore.update(Self.alertPath(alertId), updates)
    }

    /// A server transaction on the alert: an open alert counts the failure and returns to
    /// `scheduled`. Once per claim (`retriedClaim`): the transaction run again after a commit whose
    /// answer was lost (MODEL_RULES §22) finds this claim's failure counted and counts it no more.
    public func retryAlert(_ alertId: String, at retryAt: Timestamp?) async {
        let scheduled = SafeNSoundScheduledAlert.Status.scheduled.rawValue, sending = SafeNSoundScheduledAlert.Status.sending.rawValue
        _ = try? await firestore.runTransaction { transaction in
            let current = try await transaction.get(Self.alertPath(alertId))
            guard let status = current["status"]?.stringValue, status == scheduled || status == sending else { return }
            if let claim = current["claimId"], current["retriedClaim"] == claim { return }
            var updates: FieldUpdates = [
                "status": .set(.string(scheduled)), "claimedAt": .delete, "failedAttempts": .increment(1),
                "retriedClaim": .set(current["claimId"] ?? .null),
            ]
            if let retryAt { updates["scheduledFor"] = .set(.timestamp(retryAt)) }
            transaction.update(Self.alertPath(alertId), updates)
        }
    }

    /// Cancels every still-`scheduled` alert of the user; returns how many.
    public func cancelPendingAlerts(userId: String) async -> Int {
        let scheduled = SafeNSoundScheduledAlert.Status.scheduled.rawValue
        let pending = await firestore.fetch("scheduled_alerts", whereField: "userId", isEqualTo: .string(userId))
            .filter { $0["status"]?.stringValue == scheduled }
        var cancelled = 0
        for snapshot in pending {
            let done = try? await firestore.runTransaction { transaction -> Bool in
                let current = try await transaction.get(snapshot.path)
                guard current["status"]?.stringValue == scheduled else { return false }
                transaction.update(snapshot.path, ["status": .set(.string(SafeNSoundScheduledAlert.Status.cancelled.rawValue))])
                return true
            }
            if done == true { cancelled += 1 }
        }
        return cancelled
    }

    // MARK: Daily reminder

    /// Sets `dailyReminderEnabled` and `dailyReminderTime` (an admin write; devices write the same fields themselves).
    public func setDailyReminder(userId: String, enabled: Bool, time: SafeNSoundReminderTime?) async throws(SafeNSoundError) {
        do {
            try await firestore.update(Self.userPath(userId), [
                "dailyReminderEnabled": .set(.bool(enabled)), "dailyReminderTime": time.map { .set(Self.reminderTimeValue($0)) } ?? .delete,
            ])
        } catch BackendError.notFound {
            throw .userNotFound(userId: userId)
        } catch { throw Self.wrap(error, userId: userId) }
    }

    /// `where dailyReminderEnabled == true` on the field's index, ordered by id.
    public func usersWithDailyReminder() async -> [SafeNSoundUser] {
        await firestore.fetch("users", whereField: "dailyReminderEnabled", isEqualTo: .bool(true)).compactMap { Self.user($0.fields) }
    }

    /// A server transaction on `users/{uid}` (see `SafeNSoundStore.claimReminder`).
    public func claimReminder(userId: String, day: SafeNSoundLocalDate, at now: Timestamp, lease: Duration) async -> SafeNSoundUser? {
        let path = Self.userPath(userId)
        // The claim names this call: a retry after a commit whose answer was lost finds it its own.
        let holder = firestore.newDocumentId()
        let claimed = try? await firestore.runTransaction { transaction -> SafeNSoundUser? in
            let snapshot = try await transaction.get(path)
            guard var user = Self.user(snapshot.fields), user.dailyReminderEnabled, (user.lastReminderDay ?? "") < day.description else { return nil }
            if let claimedAt = user.reminderClaimedAt, claimedAt + lease > now, snapshot["reminderClaimId"] != .string(holder) { return nil }
            user.reminderClaimedAt = now
            transaction.update(path, ["reminderClaimedAt": .set(.timestamp(now)), "reminderClaimId": .set(.string(holder))])
            return user
        }
        return claimed ?? nil
    }

    /// A server transaction on `users/{uid}` (see `SafeNSoundStore.finishReminder`), tried up to
    /// three times (each with its own attempts): a finish that never commits leaves the claim to
    /// expire after its lease, and a later run could then send the day's reminder again.
    public func finishReminder(userId: String, day: SafeNSoundLocalDate?, sentAt: Timestamp?) async {
        let path = Self.userPath(userId)
        for _ in 0..<3 {
            let done: Void? = try? await firestore.runTransaction { transaction in
                let snapshot = try await transaction.get(path)
                guard snapshot.exists else { return }
                var updates: FieldUpdates = ["reminderClaimedAt": .delete, "reminderClaimId": .delete]
                if let day, (snapshot["lastReminderDay"]?.stringValue ?? "") < day.description { updates["lastReminderDay"] = .set(.string(day.description)) }
                if let sentAt { updates["lastReminderSentAt"] = .set(.timestamp(sentAt)) }
                transaction.update(path, updates)
            }
            if done != nil { return }
        }
    }

    /// Every alert, ordered by creation time then id.
    public func allAlerts() async -> [SafeNSoundScheduledAlert] {
        firestore.query("scheduled_alerts").compactMap(Self.alert).sorted { ($0.createdAt, $0.alertId) < ($1.createdAt, $1.alertId) }
    }

    /// Every alert of `userId`, ordered by creation time then id (`allAlerts` filtered to the user).
    public func alerts(of userId: String) async -> [SafeNSoundScheduledAlert] {
        firestore.query("scheduled_alerts", whereField: "userId", isEqualTo: .string(userId))
            .compactMap(Self.alert).filter { $0.userId == userId }.sorted { ($0.createdAt, $0.alertId) < ($1.createdAt, $1.alertId) }
    }
}
