import Synchronization

/// UFree's backend rules: availability per day, the friend-request handshake, bidirectional
/// friends, nudges with rapid-tap protection, Nudge All, the who's-free heatmap and the inbox.
///
/// Each user is an actor (`ufree/user/{id}`), each unordered pair of users is an actor
/// (`friendship/{a}_{b}`), so concurrent requests and removals are real interleavings.
public final class UFreeApp: Sendable {
    public let environment: DomainEnvironment
    public let variant: UFreeVariant
    /// Minimum time between two nudges from one sender to one recipient (*estimate*: 60 s).
    public let nudgeCooldown: Duration
    private let users = Mutex<[String: UFreeUserAccount]>([:])
    private let pairs = Mutex<[String: UFreeFriendshipPair]>([:])
    private let notificationSequence = Mutex<Int>(0)

    public init(environment: DomainEnvironment, variant: UFreeVariant = .careful, nudgeCooldown: Duration = .seconds(60)) {
        self.environment = environment
        self.variant = variant
        self.nudgeCooldown = nudgeCooldown
    }

    private func account(_ userId: String) throws(UFreeError) -> UFreeUserAccount {
        guard let account = users.withLock({ $0[userId] }) else { throw .userNotFound(userId: userId) }
        return account
    }

    private func pair(_ first: String, _ second: String) -> UFreeFriendshipPair {
        let key = first < second ? "\(first)_\(second)" : "\(second)_\(first)"
        return pairs.withLock { table in
            if let existing = table[key] { return existing }
            let created = UFreeFriendshipPair(first, second, twoWay: variant == .twoWayRequests, environment: environment)
            table[key] = created
            return created
        }
    }

    private func authenticated(_ userId: String?) throws(UFreeError) -> String {
        guard let userId else { throw .unauthenticated }
        return userId
    }

    private func nextNotificationId(_ kind: UFreeNotification.Kind, from senderId: String) -> String {
        let sequence = notificationSequence.withLock { value -> Int in
            value += 1
            return value
        }
        return "\(kind.rawValue)_\(senderId)_\(sequence)"
    }

    // MARK: Users

    /// Signs a user up (anonymous auth); ids are Firebase uids chosen by the caller.
    public func registerUser(userId: String, displayName: String, timeZoneIdentifier: String) {
        let account = UFreeUserAccount(userId: userId, displayName: displayName, timeZoneIdentifier: timeZoneIdentifier, environment: environment)
        users.withLock { table in
            precondition(table[userId] == nil, "user \(userId) registered twice")
            table[userId] = account
        }
    }

    /// The sorted `friendIds` of `userId`.
    public func friendIds(of userId: String) async throws(UFreeError) -> [String] {
        await (try account(userId)).friendIds
    }

    /// How many friendship records exist for the pair (1 or 0 in the careful design).
    public func friendshipCount(_ first: String, _ second: String) async -> Int {
        await pair(first, second).friendshipIds.count
    }

    // MARK: Availability

    /// "Today" for `userId`: the local day in their time zone (UTC in the `utc-today` variant).
    public func today(for userId: String) throws(UFreeError) -> UFreeDay {
        let account = try account(userId)
        let zone = variant == .utcToday ? "UTC" : account.timeZoneIdentifier
        return UFreeDay.containing(environment.clock.now, timeZoneIdentifier: zone)
    }

    /// Sets the caller's status for `day`; only the owner may write, and never for a past day.
    public func setAvailability(
        authenticatedUserId: String?, userId: String, day: UFreeDay, status: UFreeAvailabilityStatus, note: String? = nil
    ) async throws(UFreeError) {
        let caller = try authenticated(authenticatedUserId)
        guard caller == userId else { throw .permissionDenied(userId: caller, resource: "users/\(userId)/availability/\(day.key)") }
        let account = try account(userId)
        let today = try today(for: userId)
        guard day >= today else { throw .cannotUpdatePastDate(day: day.key, today: today.key) }
        await account.setAvailability(day, UFreeDayAvailability(status: status, note: note, updatedAt: environment.clock.now))
    }

    /// Any signed-in user may read anyone's availability (the seed's rules).
    public func availability(authenticatedUserId: String?, of userId: String, on day: UFreeDay) async throws(UFreeError) -> UFreeDayAvailability? {
        _ = try authenticated(authenticatedUserId)
        return await (try account(userId)).availability(on: day)
    }

    // MARK: Friends

    /// Sends a friend request; if the other user already asked the caller, they become friends at once.
    @discardableResult
    public func sendFriendRequest(authenticatedUserId: String?, to recipientId: String) async throws(UFreeError) -> UFreeFriendshipOutcome {
        let sender = try authenticated(authenticatedUserId)
        guard sender != recipientId else { throw .cannotFriendYourself(userId: sender) }
        let senderAccount = try account(sender)
        let recipientAccount = try account(recipientId)
        let outcome = try await pair(sender, recipientId).request(from: sender)
        switch outcome {
        case .requested:
            await recipientAccount.deliver(UFreeNotification(
                notificationId: nextNotificationId(.friendRequest, from: sender), kind: .friendRequest,
                senderId: sender, recipientId: recipientId, isRead: false, createdAt: environment.clock.now))
        case let .becameFriends(version):
            await senderAccount.setFriend(recipientId, isFriend: true, version: version)
            await recipientAccount.setFriend(sender, isFriend: true, version: version)
        case .declined, .removed:
            preconditionFailure("a request neither declines nor removes")
        }
        return outcome
    }

    /// Accepts or declines the pending request from `requesterId` to the caller.
    @discardableResult
    public func respondToFriendRequest(authenticatedUserId: String?, from requesterId: String, accept: Bool) async throws(UFreeError) -> UFreeFriendshipOutcome {
        let recipient = try authenticated(authenticatedUserId)
        let recipientAccount = try account(recipient)
        let requesterAccount = try account(requesterId)
        let outcome = try await pair(recipient, requesterId).respond(recipient: recipient, requester: requesterId, accept: accept)
        if case let .becameFriends(version) = outcome {
            await recipientAccount.setFriend(requesterId, isFriend: true, version: version)
            await requesterAccount.setFriend(recipient, isFriend: true, version: version)
        }
        return outcome
    }

    /// Removes the friendship on both sides (bidirectional, like swipe-to-remove).
    public func removeFriend(authenticatedUserId: String?, friendId: String) async throws(UFreeError) {
        let caller = try authenticated(authenticatedUserId)
        let callerAccount = try account(caller)
        let friendAccount = try account(friendId)
        guard case let .removed(version) = try await pair(caller, friendId).remove(by: caller) else {
            preconditionFailure("remove returns removed")
        }
        await callerAccount.setFriend(friendId, isFriend: false, version: version)
        await friendAccount.setFriend(caller, isFriend: false, version: version)
    }

    // MARK: Nudges

    /// Sends a nudge (wave) to a friend. Careful design: the recipient's inbox enforces one nudge
    /// per sender per `nudgeCooldown`, atomically, so rapid taps or two devices send one nudge.
    public func nudge(authenticatedUserId: String?, friendId: String) async throws(UFreeError) {
        let sender = try authenticated(authenticatedUserId)
        let senderAccount = try account(sender)
        let recipientAccount = try account(friendId)
        guard await pair(sender, friendId).areFriends else { throw .notFriends(userId: sender, otherUserId: friendId) }
        let notification = UFreeNotification(
            notificationId: nextNotificationId(.nudge, from: sender), kind: .nudge,
            senderId: sender, recipientId: friendId, isRead: false, createdAt: environment.clock.now)
        if variant == .clientTapGuardOnly {
            guard await senderAccount.beginNudge(to: friendId) else { throw .nudgeInFlight(fromUserId: sender, toUserId: friendId) }
            try? await recipientAccount.receiveNudge(notification, cooldown: nil)
            await senderAccount.endNudge(to: friendId)
            return
        }
        try await recipientAccount.receiveNudge(notification, cooldown: nudgeCooldown)
    }

    /// "Nudge All": nudges every friend whose status on `day` is free, in friend-id order; one
    /// failure does not stop the others.
    public func nudgeAllFree(authenticatedUserId: String?, on day: UFreeDay) async throws(UFreeError) -> UFreeNudgeAllResult {
        let sender = try authenticated(authenticatedUserId)
        var result = UFreeNudgeAllResult()
        for friendId in await (try account(sender)).friendIds {
            guard let friend = try? account(friendId), await friend.availability(on: day)?.status == .free else { continue }
            do throws(UFreeError) {
                try await nudge(authenticatedUserId: sender, friendId: friendId)
                result.nudgedFriendIds.append(friendId)
            } catch {
                result.failures.append(UFreeNudgeAllResult.Failure(friendId: friendId, error: error))
            }
        }
        return result
    }

    /// "Who's free on…": for each of `days`, how many of the caller's friends are free or partly free.
    public func whosFreeHeatmap(authenticatedUserId: String?, days: [UFreeDay]) async throws(UFreeError) -> [UFreeHeatmapDay] {
        let caller = try authenticated(authenticatedUserId)
        let friendIds = await (try account(caller)).friendIds
        var heatmap = days.map { UFreeHeatmapDay(day: $0, freeCount: 0, partlyFreeCount: 0) }
        for friendId in friendIds {
            guard let friend = try? account(friendId) else { continue }
            for index in heatmap.indices {
                guard let status = await friend.availability(on: heatmap[index].day)?.status else { continue }
                if status == .free { heatmap[index].freeCount += 1 }
                if status.isPartlyFree { heatmap[index].partlyFreeCount += 1 }
            }
        }
        return heatmap
    }

    // MARK: Inbox

    /// The caller's notifications, newest first (only the owner may read them).
    public func inbox(authenticatedUserId: String?, of userId: String) async throws(UFreeError) -> [UFreeNotification] {
        let caller = try authenticated(authenticatedUserId)
        guard caller == userId else { throw .permissionDenied(userId: caller, resource: "users/\(userId)/notifications") }
        return await (try account(userId)).inbox()
    }

    public func unreadCount(authenticatedUserId: String?, of userId: String) async throws(UFreeError) -> Int {
        let caller = try authenticated(authenticatedUserId)
        guard caller == userId else { throw .permissionDenied(userId: caller, resource: "users/\(userId)/notifications") }
        return await (try account(userId)).unreadCount()
    }

    public func markRead(authenticatedUserId: String?, of userId: String, notificationId: String) async throws(UFreeError) {
        let caller = try authenticated(authenticatedUserId)
        guard caller == userId else { throw .permissionDenied(userId: caller, resource: "users/\(userId)/notifications/\(notificationId)") }
        try await (try account(userId)).markRead(notificationId)
    }

    public func markAllRead(authenticatedUserId: String?, of userId: String) async throws(UFreeError) {
        let caller = try authenticated(authenticatedUserId)
        guard caller == userId else { throw .permissionDenied(userId: caller, resource: "users/\(userId)/notifications") }
        await (try account(userId)).markAllRead()
    }
}

/// The outcome of "Nudge All": who was nudged and who failed (and why).
public struct UFreeNudgeAllResult: Sendable, Equatable {
    /// One friend the batch could not nudge.
    public struct Failure: Sendable, Equatable {
        public var friendId: String
        public var error: UFreeError
    }
    public var nudgedFriendIds: [String] = []
    public var failures: [Failure] = []
}

/// One day of the "Who's free on…" heatmap.
public struct UFreeHeatmapDay: Sendable, Equatable {
    public var day: UFreeDay
    public var freeCount: Int
    public var partlyFreeCount: Int
}
