/// The actor owning the friendship state of one unordered pair of users (`friendship/{a}_{b}`).
///
/// Careful design: one state per pair (none, pending from one side, friends), so crossing
/// requests become one friendship. `two-way-requests` keeps one request per direction and adds a
/// friendship record with a random id on every accept, as a literal `add()` would.
actor UFreeFriendshipPair: DomainActor {
    nonisolated let executor: any SerialExecutor
    nonisolated let lowUserId: String
    nonisolated let highUserId: String
    private let twoWay: Bool
    private var pendingFrom: Set<String> = []
    private(set) var friendshipIds: [String] = []
    /// Bumped on every change of friendship; stamps the friendIds updates it causes.
    private(set) var version = 0
    private var randomIds: any RandomNumberGenerator

    init(_ first: String, _ second: String, twoWay: Bool, environment: DomainEnvironment) {
        precondition(first != second, "a pair needs two users")
        lowUserId = min(first, second)
        highUserId = max(first, second)
        self.twoWay = twoWay
        executor = environment.makeExecutor(label: "friendship/\(lowUserId)_\(highUserId)")
        randomIds = environment.randomStream("ufree.friendship-ids/\(lowUserId)_\(highUserId)")
    }

    var areFriends: Bool { !friendshipIds.isEmpty }

    private func other(than userId: String) -> String { userId == lowUserId ? highUserId : lowUserId }

    func request(from sender: String) throws(UFreeError) -> UFreeFriendshipOutcome {
        let recipient = other(than: sender)
        if areFriends && !twoWay { throw .alreadyFriends(userId: sender, friendId: recipient) }
        if pendingFrom.contains(sender) { throw .alreadyRequested(fromUserId: sender, toUserId: recipient) }
        if pendingFrom.contains(recipient) && !twoWay {
            return accept(requester: recipient)  // crossing requests: the handshake is complete
        }
        pendingFrom.insert(sender)
        return .requested
    }

    func respond(recipient: String, requester: String, accept shouldAccept: Bool) throws(UFreeError) -> UFreeFriendshipOutcome {
        guard pendingFrom.contains(requester) else { throw .noPendingRequest(fromUserId: requester, toUserId: recipient) }
        if !shouldAccept {
            pendingFrom.remove(requester)
            return .declined
        }
        return accept(requester: requester)
    }

    private func accept(requester: String) -> UFreeFriendshipOutcome {
        pendingFrom.remove(requester)
        if twoWay {
            friendshipIds.append("friendship_\(String(randomIds.next(), radix: 16))")
        } else {
            pendingFrom.removeAll()
            friendshipIds = ["\(lowUserId)_\(highUserId)"]
        }
        version += 1
        assert(twoWay || friendshipIds.count == 1, "careful design keeps one friendship per pair")
        return .becameFriends(version: version)
    }

    func remove(by userId: String) throws(UFreeError) -> UFreeFriendshipOutcome {
        guard areFriends else { throw .notFriends(userId: userId, otherUserId: other(than: userId)) }
        friendshipIds.removeFirst()
        version += 1
        return .removed(version: version)
    }
}
