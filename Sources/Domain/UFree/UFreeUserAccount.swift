/// One day's stored availability.
public struct UFreeDayAvailability: Sendable, Equatable {
    public var status: UFreeAvailabilityStatus
    public var note: String?
    public var updatedAt: Timestamp
}

/// The actor owning `users/{id}` with its availability and notifications sub-collections.
actor UFreeUserAccount: DomainActor {
    nonisolated let executor: any SerialExecutor
    nonisolated let userId: String
    nonisolated let timeZoneIdentifier: String
    let displayName: String
    private(set) var friendIds: [String] = []  // sorted
    /// Last applied friendship version per other user, so out-of-order friendIds updates cannot win.
    private var friendVersions: [String: Int] = [:]
    private var availability: [String: UFreeDayAvailability] = [:]
    private var notifications: [UFreeNotification] = []
    private var lastNudgeAtBySender: [String: Timestamp] = [:]
    private var nudgesInFlight: Set<String> = []

    init(userId: String, displayName: String, timeZoneIdentifier: String, environment: DomainEnvironment) {
        self.userId = userId
        self.displayName = displayName
        self.timeZoneIdentifier = timeZoneIdentifier
        self.executor = environment.makeExecutor(label: "ufree/user/\(userId)")
    }

    func setAvailability(_ day: UFreeDay, _ entry: UFreeDayAvailability) { availability[day.key] = entry }

    func availability(on day: UFreeDay) -> UFreeDayAvailability? { availability[day.key] }

    /// arrayUnion / arrayRemove of `friendId`, applied only if `version` is newer than the last one applied.
    func setFriend(_ friendId: String, isFriend: Bool, version: Int) {
        if let applied = friendVersions[friendId], applied >= version { return }
        friendVersions[friendId] = version
        let index = friendIds.firstIndex { $0 >= friendId } ?? friendIds.endIndex
        let present = index < friendIds.endIndex && friendIds[index] == friendId
        if isFriend && !present { friendIds.insert(friendId, at: index) }
        if !isFriend && present { friendIds.remove(at: index) }
    }

    func deliver(_ notification: UFreeNotification) {
        precondition(notification.recipientId == userId, "notification delivered to the wrong inbox")
        notifications.append(notification)
    }

    /// Records a nudge from `senderId` unless one arrived within `cooldown` (checked and written atomically).
    func receiveNudge(_ notification: UFreeNotification, cooldown: Duration?) throws(UFreeError) {
        let senderId = notification.senderId
        if let cooldown, let last = lastNudgeAtBySender[senderId], notification.createdAt - last < cooldown {
            let remaining = (cooldown - (notification.createdAt - last)).nanoseconds
            throw .nudgeTooSoon(fromUserId: senderId, toUserId: userId, retryAfterSeconds: (remaining + 999_999_999) / 1_000_000_000)
        }
        lastNudgeAtBySender[senderId] = notification.createdAt
        deliver(notification)
    }

    /// The client-side `isProcessing` guard of the literal design (kept per sender, in the sender's account).
    func beginNudge(to recipientId: String) -> Bool { nudgesInFlight.insert(recipientId).inserted }
    func endNudge(to recipientId: String) { nudgesInFlight.remove(recipientId) }

    /// Newest first.
    func inbox() -> [UFreeNotification] { notifications.reversed() }

    func markRead(_ notificationId: String) throws(UFreeError) {
        guard let index = notifications.firstIndex(where: { $0.notificationId == notificationId }) else {
            throw .notificationNotFound(notificationId: notificationId)
        }
        notifications[index].isRead = true
    }

    func markAllRead() { for index in notifications.indices { notifications[index].isRead = true } }

    func unreadCount() -> Int { notifications.count { !$0.isRead } }
}
