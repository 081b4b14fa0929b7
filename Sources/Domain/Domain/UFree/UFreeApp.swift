import SimulatedFirebase
import Synchronization

/// UFree's rules on the simulated backend: availability per day, the friend-request handshake,
/// bidirectional friends, nudges with rapid-tap protection, Nudge All, the who's-free heatmap and
/// the notification inbox. Every call goes through the caller's `FirestoreClient`.
///
/// Layout: `users/{uid}` {displayName, timeZone, friendIds}, `users/{uid}/availability/{YYYY-MM-DD}`
/// {status 0-4, note, updatedAt}, `users/{uid}/notifications/{id}` {type, senderId, recipientId,
/// read, createdAt}, `users/{uid}/nudge_senders/{senderUid}` {lastNudgeAt}, and one document per
/// unordered pair `friendships/{low}_{high}` {members, state: pending|friends, requesterId}, so the
/// pair's document actor serialises every request, answer and removal of that pair.
public final class UFreeApp: Sendable {
    /// The backend the app is deployed on.
    public let backend: Backend
    /// The design that runs.
    public let variant: UFreeVariant
    /// Minimum time between two nudges from one sender to one recipient (*estimate*: 60 s).
    public let nudgeCooldown: Duration
    /// The literal design's per-device `isProcessing` flags ("sender>recipient").
    private let nudgesInFlight = Mutex<Set<String>>([])
    private let sequence = Mutex<Int>(0)
    /// The devices' view-model cooldown tables (`nudge-guard-reentrant`), keyed "sender>recipient".
    private let deviceMemory: InstanceMemory

    /// Builds the app on `backend` and deploys UFree's security rules.
    public init(backend: Backend, variant: UFreeVariant = .careful, nudgeCooldown: Duration = .seconds(60)) {
        self.backend = backend
        self.variant = variant
        self.nudgeCooldown = nudgeCooldown
        self.deviceMemory = InstanceMemory(env: backend.env, label: "ufree-devices")
        backend.setRules(Self.securityRules(for: variant), source: Self.rulesFile(for: variant))
    }

    static func user(_ uid: String) -> DocumentPath { DocumentPath("users", uid) }
    static func availability(_ uid: String, _ day: UFreeDay) -> DocumentPath { user(uid).child("availability", day.key) }
    static func notification(_ uid: String, _ id: String) -> DocumentPath { user(uid).child("notifications", id) }
    static func nudgeMarker(_ recipient: String, _ sender: String) -> DocumentPath { user(recipient).child("nudge_senders", sender) }
    static func pairId(_ first: String, _ second: String) -> String { first < second ? "\(first)_\(second)" : "\(second)_\(first)" }
    static func friendship(_ first: String, _ second: String) -> DocumentPath { DocumentPath("friendships", pairId(first, second)) }
    static func members(_ first: String, _ second: String) -> Value { .array([.string(min(first, second)), .string(max(first, second))]) }

    func uid(_ client: FirestoreClient) throws(UFreeError) -> String {
        guard let uid = client.auth?.uid else { throw .unauthenticated }
        return uid
    }

    private func nextSequence() -> Int { sequence.withLock { $0 += 1; return $0 } }

    private func notificationFields(_ kind: UFreeNotification.Kind, from sender: String, to recipient: String, at now: Timestamp) -> Fields {
        ["type": .string(kind.rawValue), "senderId": .string(sender), "recipientId": .string(recipient), "read": false, "createdAt": .timestamp(now)]
    }

    // MARK: Users

    /// Signs the caller up (anonymous auth): creates `users/{uid}`; a repeat is a no-op.
    func registerUser(displayName: String, timeZoneIdentifier: String, as client: FirestoreClient) async throws(UFreeError) {
        let userId = try uid(client)
        do {
            try await client.runTransaction { transaction in
                if try await transaction.get(Self.user(userId)).exists { return }
                transaction.create(Self.user(userId), [
                    "displayName": .string(displayName), "timeZone": .string(timeZoneIdentifier), "friendIds": [],
                ])
            }
        } catch { throw UFreeError.wrap(error) }
    }

    /// The sorted `friendIds` of `userId` (admin read).
    public func friendIds(of userId: String) async -> [String] {
        let ids = await backend.firestore.get(Self.user(userId))["friendIds"]?.arrayValue ?? []
        return ids.compactMap(\.stringValue).sorted()
    }

    /// How many friendship documents link the pair (1 or 0 in the careful design).
    public func friendshipCount(_ first: String, _ second: String) -> Int {
        let members = Self.members(first, second)
        return backend.firestore.query("friendships") { $0["members"] == members && $0["state"] != .string("pending") }.count
    }

    // MARK: Availability

    /// "Today" for the caller: the local day in their time zone (UTC in the `utc-today` variant).
    func today(as client: FirestoreClient) async throws(UFreeError) -> UFreeDay {
        let userId = try uid(client)
        let profile: DocumentSnapshot
        do { profile = try await client.get(Self.user(userId)) } catch { throw .backend(error) }
        guard let zone = profile["timeZone"]?.stringValue else { throw .userNotFound(userId: userId) }
        return UFreeDay.containing(backend.env.clock.now, timeZoneIdentifier: variant == .utcToday ? "UTC" : zone)
    }

    /// Sets the caller's status for `day`, never for a day before their local today.
    func setAvailability(day: UFreeDay, status: UFreeAvailabilityStatus, note: String? = nil, as client: FirestoreClient) async throws(UFreeError) {
        let userId = try uid(client)
        let today = try await today(as: client)
        guard day >= today else { throw .cannotUpdatePastDate(day: day.key, today: today.key) }
        var fields: Fields = ["status": .int(Int64(status.rawValue)), "updatedAt": .timestamp(backend.env.clock.now)]
        if let note { fields["note"] = .string(note) }
        do { try await client.setData(Self.availability(userId, day), fields) } catch { throw .backend(error) }
    }

    /// `userId`'s status for `day` (any signed-in user may read it), nil if unknown.
    func availability(of userId: String, on day: UFreeDay, as client: FirestoreClient) async throws(UFreeError) -> UFreeDayAvailability? {
        _ = try uid(client)
        let snapshot: DocumentSnapshot
        do { snapshot = try await client.get(Self.availability(userId, day)) } catch { throw .backend(error) }
        guard let raw = snapshot["status"]?.intValue, let status = UFreeAvailabilityStatus(rawValue: Int(raw)) else { return nil }
        return UFreeDayAvailability(status: status, note: snapshot["note"]?.stringValue, updatedAt: snapshot["updatedAt"]?.timestampValue ?? snapshot.updateTime)
    }

    // MARK: Friends

    /// Sends a friend request. Careful design: one transaction on the pair's document; if the
    /// other user already asked the caller, the handshake completes and they become friends, so
    /// two users asking each other at once end with exactly one friendship.
    @discardableResult
    func sendFriendRequest(to recipientId: String, as client: FirestoreClient) async throws(UFreeError) -> UFreeFriendshipOutcome {
        let sender = try uid(client)
        guard sender != recipientId else { throw .cannotFriendYourself(userId: sender) }
        let now = backend.env.clock.now
        let notificationId = "friendRequest_\(sender)_\(now.unixNanoseconds)"
        do {
            if variant == .sentRequestsQuery {
                // The Sent tab's query, reused as the duplicate guard: every document it returns
                // has the caller as a member, but the rules judge only what it pins (requesterId).
                let sent = try await client.query(Query("friendships", filter: .and([
                    .field("requesterId", .equal, .string(sender)), .field("state", .equal, "pending"),
                ])))
                if sent.contains(where: { $0["members"] == Self.members(sender, recipientId) }) {
                    throw UFreeError.alreadyRequested(fromUserId: sender, toUserId: recipientId)
                }
            }
            if variant == .twoWayRequests {
                return try await client.runTransaction { transaction in
                    guard try await transaction.get(Self.user(recipientId)).exists else { throw UFreeError.userNotFound(userId: recipientId) }
                    let request = try await transaction.get(DocumentPath("friend_requests", "\(sender)_\(recipientId)"))
                    if request.exists { throw UFreeError.alreadyRequested(fromUserId: sender, toUserId: recipientId) }
                    transaction.create(DocumentPath("friend_requests", "\(sender)_\(recipientId)"), ["from": .string(sender), "to": .string(recipientId)])
                    transaction.create(Self.notification(recipientId, notificationId), self.notificationFields(.friendRequest, from: sender, to: recipientId, at: now))
                    return .requested
                }
            }
            return try await client.runTransaction { transaction in
                let pair = try await transaction.get(Self.friendship(sender, recipientId))
                guard try await transaction.get(Self.user(recipientId)).exists else { throw UFreeError.userNotFound(userId: recipientId) }
                switch pair["state"]?.stringValue {
                case "friends"?:
                    throw UFreeError.alreadyFriends(userId: sender, friendId: recipientId)
                case "pending"? where pair["requesterId"]?.stringValue == sender:
                    throw UFreeError.alreadyRequested(fromUserId: sender, toUserId: recipientId)
                case "pending"?:
                    self.befriend(transaction, sender, recipientId, at: now)
                    return .becameFriends
                default:
                    transaction.set(Self.friendship(sender, recipientId), [
                        "members": Self.members(sender, recipientId), "state": "pending",
                        "requesterId": .string(sender), "updatedAt": .timestamp(now),
                    ])
                    transaction.create(Self.notification(recipientId, notificationId), self.notificationFields(.friendRequest, from: sender, to: recipientId, at: now))
                    return .requested
                }
            }
        } catch { throw UFreeError.wrap(error) }
    }

    private func befriend(_ transaction: Transaction, _ first: String, _ second: String, at now: Timestamp) {
        transaction.set(Self.friendship(first, second), ["members": Self.members(first, second), "state": "friends", "updatedAt": .timestamp(now)])
        transaction.update(Self.user(first), ["friendIds": .arrayUnion([.string(second)])])
        transaction.update(Self.user(second), ["friendIds": .arrayUnion([.string(first)])])
    }

    /// Accepts or declines the pending request from `requesterId` to the caller.
    @discardableResult
    func respondToFriendRequest(from requesterId: String, accept: Bool, as client: FirestoreClient) async throws(UFreeError) -> UFreeFriendshipOutcome {
        let recipient = try uid(client)
        let now = backend.env.clock.now
        do {
            if variant == .twoWayRequests {
                let requestPath = DocumentPath("friend_requests", "\(requesterId)_\(recipient)")
                guard try await client.get(requestPath).exists else { throw UFreeError.noPendingRequest(fromUserId: requesterId, toUserId: recipient) }
                try await client.delete(requestPath)
                guard accept else { return .declined }
                try await client.add("friendships", ["members": Self.members(recipient, requesterId), "state": "friends", "updatedAt": .timestamp(now)])
                try await client.updateData(Self.user(recipient), ["friendIds": .arrayUnion([.string(requesterId)])])
                try await client.updateData(Self.user(requesterId), ["friendIds": .arrayUnion([.string(recipient)])])
                return .becameFriends
            }
            return try await client.runTransaction { transaction in
                let pair = try await transaction.get(Self.friendship(recipient, requesterId))
                guard pair["state"]?.stringValue == "pending", pair["requesterId"]?.stringValue == requesterId else {
                    throw UFreeError.noPendingRequest(fromUserId: requesterId, toUserId: recipient)
                }
                guard accept else {
                    transaction.delete(Self.friendship(recipient, requesterId))
                    return .declined
                }
                self.befriend(transaction, recipient, requesterId, at: now)
                return .becameFriends
            }
        } catch { throw UFreeError.wrap(error) }
    }

    /// Removes the friendship on both sides (bidirectional swipe-to-remove).
    func removeFriend(_ friendId: String, as client: FirestoreClient) async throws(UFreeError) {
        let caller = try uid(client)
        do {
            if variant == .twoWayRequests {
                let members = Self.members(caller, friendId)
                let links = try await client.query(Query("friendships", filter: .field("members", .equal, members)))
                guard let first = links.first else { throw UFreeError.notFriends(userId: caller, otherUserId: friendId) }
                try await client.delete(first.path)  // the literal design removes "the" friendship it finds
                try await client.updateData(Self.user(caller), ["friendIds": .arrayRemove([.string(friendId)])])
                try await client.updateData(Self.user(friendId), ["friendIds": .arrayRemove([.string(caller)])])
                return
            }
            try await client.runTransaction { transaction in
                let pair = try await transaction.get(Self.friendship(caller, friendId))
                guard pair["state"]?.stringValue == "friends" else { throw UFreeError.notFriends(userId: caller, otherUserId: friendId) }
                transaction.delete(Self.friendship(caller, friendId))
                transaction.update(Self.user(caller), ["friendIds": .arrayRemove([.string(friendId)])])
                transaction.update(Self.user(friendId), ["friendIds": .arrayRemove([.string(caller)])])
            }
        } catch { throw UFreeError.wrap(error) }
    }

    // MARK: Nudges

    /// Sends a nudge to a friend. Careful design: the recipient-side marker
    /// `nudge_senders/{sender}` and the notification commit in one transaction, so rapid taps or
    /// two devices deliver one nudge per `nudgeCooldown`; the others get `nudgeTooSoon`.
    func nudge(_ friendId: String, as client: FirestoreClient) async throws(UFreeError) {
        let sender = try uid(client)
        let now = backend.env.clock.now
        if variant == .nudgeGuardReentrant {
            // The view model's guard runs on the tap, before any network: the server trusts it.
            guard await deviceMemory.claimAcrossAwait("\(sender)>\(friendId)", at: now, spacing: nudgeCooldown) else {
                throw .nudgeTooSoon(fromUserId: sender, toUserId: friendId, retryAfterSeconds: (nudgeCooldown.nanoseconds + 999_999_999) / 1_000_000_000)
            }
        }
        do {
            let friendIds = (try await client.get(Self.user(sender))["friendIds"]?.arrayValue) ?? []
            guard friendIds.contains(.string(friendId)) else { throw UFreeError.notFriends(userId: sender, otherUserId: friendId) }
            if variant == .nudgeGuardReentrant {
                let id = "nudge_\(sender)_\(now.unixNanoseconds)_\(nextSequence())"
                try await client.setData(Self.notification(friendId, id), notificationFields(.nudge, from: sender, to: friendId, at: now))
                return
            }
            if variant == .clientTapGuardOnly {
                let key = "\(sender)>\(friendId)"
                guard nudgesInFlight.withLock({ $0.insert(key).inserted }) else { throw UFreeError.nudgeInFlight(fromUserId: sender, toUserId: friendId) }
                defer { _ = nudgesInFlight.withLock { $0.remove(key) } }
                let id = "nudge_\(sender)_\(now.unixNanoseconds)_\(nextSequence())"
                try await client.setData(Self.notification(friendId, id), notificationFields(.nudge, from: sender, to: friendId, at: now))
                return
            }
            let cooldown = variant == .nudgeCooldownHalf ? nudgeCooldown / 2 : nudgeCooldown
            try await client.runTransaction { transaction in
                let marker = try await transaction.get(Self.nudgeMarker(friendId, sender))
                if let last = marker["lastNudgeAt"]?.timestampValue, now - last < cooldown {
                    let remaining = (cooldown - (now - last)).nanoseconds
                    throw UFreeError.nudgeTooSoon(fromUserId: sender, toUserId: friendId, retryAfterSeconds: (remaining + 999_999_999) / 1_000_000_000)
                }
                transaction.set(Self.nudgeMarker(friendId, sender), ["lastNudgeAt": .timestamp(now)])
                transaction.create(Self.notification(friendId, "nudge_\(sender)_\(now.unixNanoseconds)"), self.notificationFields(.nudge, from: sender, to: friendId, at: now))
            }
        } catch { throw UFreeError.wrap(error) }
    }

    /// "Nudge All": nudges every friend whose status on `day` is free, in friend-id order; one
    /// failure does not stop the others, including a failed read of one friend's status (that
    /// friend is reported in `unreadable`, not nudged), so the nudges already sent are reported.
    func nudgeAllFree(on day: UFreeDay, as client: FirestoreClient) async throws(UFreeError) -> UFreeNudgeAllResult {
        let sender = try uid(client)
        var result = UFreeNudgeAllResult()
        for friendId in await friendIds(of: sender) {
            let status: UFreeAvailabilityStatus?
            do throws(UFreeError) {
                status = try await availability(of: friendId, on: day, as: client)?.status
            } catch {
                result.unreadable.append(UFreeNudgeAllResult.Failure(friendId: friendId, error: error))
                continue
            }
            guard status == .free else { continue }
            do throws(UFreeError) {
                try await nudge(friendId, as: client)
                result.nudgedFriendIds.append(friendId)
            } catch {
                result.failures.append(UFreeNudgeAllResult.Failure(friendId: friendId, error: error))
            }
        }
        return result
    }

    /// "Who's free on…": for each of `days`, how many of the caller's friends are free or partly free.
    func whosFreeHeatmap(days: [UFreeDay], as client: FirestoreClient) async throws(UFreeError) -> [UFreeHeatmapDay] {
        let caller = try uid(client)
        var heatmap = days.map { UFreeHeatmapDay(day: $0, freeCount: 0, partlyFreeCount: 0) }
        for friendId in await friendIds(of: caller) {
            for index in heatmap.indices {
                guard let status = try await availability(of: friendId, on: heatmap[index].day, as: client)?.status else { continue }
                if status == .free { heatmap[index].freeCount += 1 }
                if status.isPartlyFree { heatmap[index].partlyFreeCount += 1 }
            }
        }
        return heatmap
    }

    // MARK: Inbox

    /// The caller's notifications, newest first.
    func inbox(as client: FirestoreClient) async throws(UFreeError) -> [UFreeNotification] {
        let userId = try uid(client)
        let documents: [DocumentSnapshot]
        do { documents = try await client.query("users/\(userId)/notifications") } catch { throw .backend(error) }
        let notifications = documents.compactMap { document -> UFreeNotification? in
            guard let kind = document["type"]?.stringValue.flatMap(UFreeNotification.Kind.init(rawValue:)),
                  let senderId = document["senderId"]?.stringValue, let createdAt = document["createdAt"]?.timestampValue else { return nil }
            return UFreeNotification(notificationId: document.id, kind: kind, senderId: senderId, recipientId: userId,
                                     isRead: document["read"] == .bool(true), createdAt: createdAt)
        }
        return notifications.sorted { ($0.createdAt, $0.notificationId) > ($1.createdAt, $1.notificationId) }
    }

    /// The unread badge.
    func unreadCount(as client: FirestoreClient) async throws(UFreeError) -> Int {
        try await inbox(as: client).count { !$0.isRead }
    }

    func markRead(_ notificationId: String, as client: FirestoreClient) async throws(UFreeError) {
        let userId = try uid(client)
        do {
            try await client.updateData(Self.notification(userId, notificationId), ["read": .set(true)])
        } catch .notFound {
            throw .notificationNotFound(notificationId: notificationId)
        } catch { throw .backend(error) }
    }

    /// Marks every notification the server has unread now; returns their ids.
    @discardableResult
    func markAllRead(as client: FirestoreClient) async throws(UFreeError) -> [String] {
        var marked: [String] = []
        for notification in try await inbox(as: client) where !notification.isRead {
            try await markRead(notification.notificationId, as: client)
            marked.append(notification.notificationId)
        }
        return marked
    }

    // MARK: Rules

    /// UFree's rules. Differences from the seed, which read literally lets no sender create a
    /// notification (`resource.data.senderId` is absent on create, and `allow write` only lets the
    /// owner write): a notification may be created by its sender (`request.resource.data.senderId`),
    /// and another user may change only `friendIds`, by adding or removing themselves.
    public static var securityRules: SecurityRules { securityRules(for: .careful) }

    /// UFree's rules file (`ufree.rules`), as its team deploys it: the careful design's rules,
    /// the same as `securityRules(for: .careful)`.
    public static var rulesText: String { String(decoding: PackageResources.ufree_rules, as: UTF8.self) }

    /// The seed's rules as written (`ufree-seed.rules`, the variant `seed-rules-literal`): the same
    /// as `securityRules(for: .seedRulesLiteral)`.
    /// The rules file equal to `securityRules(for: variant)`: the careful one's, the seed's for
    /// `seed-rules-literal`; nil for a variant whose Swift rules change and have no file.
    static func rulesFile(for variant: UFreeVariant) -> String? {
        switch variant {
        case .seedRulesLiteral: seedRulesText
        case .lastArrivalWins: nil
        default: rulesText
        }
    }

    public static var seedRulesText: String { String(decoding: PackageResources.ufree_seed_rules, as: UTF8.self) }

    /// UFree's rules as `variant` deploys them. The careful design adds one condition for the
    /// offline-first devices (`UFreeDevice`): a day written with an edit stamp (`editedAt`,
    /// `editor`) may not replace a day whose stamp is newer, so a write queued offline that syncs
    /// after a newer edit from the user's other device is rejected (and rolled back on its device);
    /// `last-arrival-wins` leaves the seed's `allow write: if isOwner(userId)`.
    /// `seed-rules-literal` deploys the seed's rules as written (`seedRules(sharing:)`).
    public static func securityRules(for variant: UFreeVariant) -> SecurityRules {
        if variant == .seedRulesLiteral { return seedRules(sharing: securityRules(for: .careful)) }
        var rules = SecurityRules()
        let newestEditWins = variant != .lastArrivalWins
        rules.match("users/{uid}/availability") { request in
            guard let auth = request.auth else { return false }
            if request.operation == .get || request.operation == .list { return true }
            guard auth.uid == request.pathSegment(1) else { return false }
            guard newestEditWins, let incoming = UFreeEditStamp(request.data), let stored = UFreeEditStamp(request.resource) else { return true }
            return incoming >= stored
        }
        rules.match("users/{uid}/notifications") { request in
            guard let auth = request.auth else { return false }
            switch request.operation {
            case .create: return request.data?["senderId"]?.stringValue == auth.uid && request.data?["recipientId"]?.stringValue == request.pathSegment(1)
            default: return auth.uid == request.pathSegment(1)
            }
        }
        rules.match("users/{uid}/nudge_senders") { request in
            guard let auth = request.auth else { return false }
            return auth.uid == request.pathSegment(3) || auth.uid == request.pathSegment(1)
        }
        rules.match("users") { request in
            guard let auth = request.auth else { return false }
            if request.operation == .get || request.operation == .list || auth.uid == request.pathSegment(1) { return true }
            guard request.operation == .update, let before = request.resource, let after = request.data else { return false }
            let otherKeysSame = Set(before.keys).union(after.keys).allSatisfy { $0 == "friendIds" || RuleRequest.same(before[$0], after[$0]) }
            let old = Set(before["friendIds"]?.arrayValue ?? []), new = Set(after["friendIds"]?.arrayValue ?? [])
            let changed = old.symmetricDifference(new)
            return otherKeysSame && changed.isSubset(of: [.string(auth.uid)])
        }
        // A pair's document is its members' alone: an update keeps the caller a member before and
        // after, so nobody can write themselves into another pair's document.
        rules.match("friendships") { request in
            guard let auth = request.auth else { return false }
            let isMember: (Fields?) -> Bool = { ($0?["members"]?.arrayValue ?? []).contains(.string(auth.uid)) }
            if request.resource == nil && request.data == nil { return request.operation == .get }  // reading a missing pair
            switch request.operation {
            case .create: return isMember(request.data)
            case .update: return isMember(request.resource) && isMember(request.data)
            case .get, .list, .delete: return isMember(request.resource)
            }
        }
        rules.match("friend_requests") { $0.auth != nil }
        // Contact discovery's server-only collections (UFreeApp+Contacts.swift).
        rules.match("phone_index") { _ in false }
        rules.match("lookup_quota") { _ in false }
        return rules
    }
}
