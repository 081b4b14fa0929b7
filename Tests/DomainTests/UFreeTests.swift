import Testing
@testable import Domain

/// Jan 12, 2026 at 6:00 PM in Los Angeles (Jan 13, 02:00 UTC).
private let laEveningUnixSeconds: Int64 = 1_768_269_600
private let jan12 = UFreeDay(year: 2026, month: 1, day: 12)

private func makeUFree(_ variant: UFreeVariant = .careful, users: [String] = ["a", "b", "c", "d"]) -> (UFreeApp, AppsTestEnvironment) {
    let test = AppsTestEnvironment(epochUnixSeconds: laEveningUnixSeconds)
    let app = UFreeApp(environment: test.environment, variant: variant)
    for user in users { app.registerUser(userId: user, displayName: user.uppercased(), timeZoneIdentifier: "America/Los_Angeles") }
    return (app, test)
}

private func befriend(_ app: UFreeApp, _ first: String, _ second: String) async throws {
    try await app.sendFriendRequest(authenticatedUserId: first, to: second)
    try await app.respondToFriendRequest(authenticatedUserId: second, from: first, accept: true)
}

@Suite("UFree")
struct UFreeTests {
    @Test("Five stored states round-trip as Int 0-4")
    func fiveStates() async throws {
        #expect(UFreeAvailabilityStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        let (app, _) = makeUFree()
        for (offset, status) in UFreeAvailabilityStatus.allCases.enumerated() {
            try await app.setAvailability(authenticatedUserId: "a", userId: "a", day: jan12.adding(days: offset), status: status, note: "n\(offset)")
            let stored = try await app.availability(authenticatedUserId: "b", of: "a", on: jan12.adding(days: offset))
            #expect(stored?.status == status)
            #expect(stored?.note == "n\(offset)")
        }
        #expect(try await app.availability(authenticatedUserId: "b", of: "a", on: jan12.adding(days: 9)) == nil)
        #expect(jan12.adding(days: 20).key == "2026-02-01")
    }

    @Test("Past dates are rejected; today is the user's local day")
    func noPastDates() async throws {
        let (app, _) = makeUFree()
        #expect(try app.today(for: "a") == jan12)
        try await app.setAvailability(authenticatedUserId: "a", userId: "a", day: jan12, status: .free)
        await #expect(throws: UFreeError.cannotUpdatePastDate(day: "2026-01-11", today: "2026-01-12")) {
            try await app.setAvailability(authenticatedUserId: "a", userId: "a", day: jan12.adding(days: -1), status: .busy)
        }
    }

    @Test("Variant utc-today rejects today's status for an evening user in Los Angeles")
    func utcTodayVariant() async throws {
        let (app, _) = makeUFree(.utcToday)
        await #expect(throws: UFreeError.cannotUpdatePastDate(day: "2026-01-12", today: "2026-01-13")) {
            try await app.setAvailability(authenticatedUserId: "a", userId: "a", day: jan12, status: .free)
        }
    }

    @Test("Only the owner writes availability; anonymous callers are rejected")
    func availabilityPermissions() async throws {
        let (app, _) = makeUFree()
        await #expect(throws: UFreeError.permissionDenied(userId: "b", resource: "users/a/availability/2026-01-12")) {
            try await app.setAvailability(authenticatedUserId: "b", userId: "a", day: jan12, status: .free)
        }
        await #expect(throws: UFreeError.unauthenticated) {
            try await app.setAvailability(authenticatedUserId: nil, userId: "a", day: jan12, status: .free)
        }
        await #expect(throws: UFreeError.userNotFound(userId: "zz")) {
            try await app.sendFriendRequest(authenticatedUserId: "a", to: "zz")
        }
    }

    @Test("Handshake: request, notification, accept, friends on both sides")
    func handshake() async throws {
        let (app, _) = makeUFree()
        #expect(try await app.sendFriendRequest(authenticatedUserId: "a", to: "b") == .requested)
        let inbox = try await app.inbox(authenticatedUserId: "b", of: "b")
        #expect(inbox.map(\.kind) == [.friendRequest])
        #expect(inbox.first?.senderId == "a")
        #expect(try await app.friendIds(of: "a").isEmpty)
        #expect(try await app.respondToFriendRequest(authenticatedUserId: "b", from: "a", accept: true) == .becameFriends(version: 1))
        #expect(try await app.friendIds(of: "a") == ["b"])
        #expect(try await app.friendIds(of: "b") == ["a"])
        #expect(await app.friendshipCount("a", "b") == 1)
    }

    @Test("Friend request rejections are typed")
    func friendRequestRejections() async throws {
        let (app, _) = makeUFree()
        await #expect(throws: UFreeError.cannotFriendYourself(userId: "a")) { try await app.sendFriendRequest(authenticatedUserId: "a", to: "a") }
        try await app.sendFriendRequest(authenticatedUserId: "a", to: "b")
        await #expect(throws: UFreeError.alreadyRequested(fromUserId: "a", toUserId: "b")) { try await app.sendFriendRequest(authenticatedUserId: "a", to: "b") }
        await #expect(throws: UFreeError.noPendingRequest(fromUserId: "c", toUserId: "b")) {
            try await app.respondToFriendRequest(authenticatedUserId: "b", from: "c", accept: true)
        }
        #expect(try await app.respondToFriendRequest(authenticatedUserId: "b", from: "a", accept: false) == .declined)
        #expect(await app.friendshipCount("a", "b") == 0)
        try await befriend(app, "a", "b")
        await #expect(throws: UFreeError.alreadyFriends(userId: "b", friendId: "a")) { try await app.sendFriendRequest(authenticatedUserId: "b", to: "a") }
    }

    @Test("Both sides sending at once end in exactly one friendship")
    func crossingRequests() async throws {
        let (app, _) = makeUFree()
        async let first = app.sendFriendRequest(authenticatedUserId: "a", to: "b")
        async let second = app.sendFriendRequest(authenticatedUserId: "b", to: "a")
        let outcomes = [try await first, try await second]
        #expect(outcomes.contains(.requested))
        #expect(outcomes.contains(.becameFriends(version: 1)))
        #expect(await app.friendshipCount("a", "b") == 1)
        #expect(try await app.friendIds(of: "a") == ["b"])
        #expect(try await app.friendIds(of: "b") == ["a"])
    }

    @Test("Variant two-way-requests makes two friendships and leaves a ghost after removal")
    func twoWayRequestsVariant() async throws {
        let (app, _) = makeUFree(.twoWayRequests)
        try await app.sendFriendRequest(authenticatedUserId: "a", to: "b")
        try await app.sendFriendRequest(authenticatedUserId: "b", to: "a")
        try await app.respondToFriendRequest(authenticatedUserId: "b", from: "a", accept: true)
        try await app.respondToFriendRequest(authenticatedUserId: "a", from: "b", accept: true)
        #expect(await app.friendshipCount("a", "b") == 2)
        try await app.removeFriend(authenticatedUserId: "a", friendId: "b")
        #expect(try await app.friendIds(of: "a").isEmpty)
        #expect(await app.friendshipCount("a", "b") == 1)
    }

    @Test("Removal is bidirectional; removing a non-friend is rejected")
    func removeFriend() async throws {
        let (app, _) = makeUFree()
        try await befriend(app, "a", "b")
        try await app.removeFriend(authenticatedUserId: "b", friendId: "a")
        #expect(try await app.friendIds(of: "a").isEmpty)
        #expect(try await app.friendIds(of: "b").isEmpty)
        await #expect(throws: UFreeError.notFriends(userId: "a", otherUserId: "b")) { try await app.removeFriend(authenticatedUserId: "a", friendId: "b") }
        try await befriend(app, "b", "a")
        #expect(try await app.friendIds(of: "a") == ["b"])
    }

    @Test("Nudges need a friendship and respect the cooldown")
    func nudgeCooldown() async throws {
        let (app, test) = makeUFree()
        await #expect(throws: UFreeError.notFriends(userId: "a", otherUserId: "b")) { try await app.nudge(authenticatedUserId: "a", friendId: "b") }
        try await befriend(app, "a", "b")
        try await app.nudge(authenticatedUserId: "a", friendId: "b")
        test.clock.advance(by: .seconds(1))
        await #expect(throws: UFreeError.nudgeTooSoon(fromUserId: "a", toUserId: "b", retryAfterSeconds: 59)) {
            try await app.nudge(authenticatedUserId: "a", friendId: "b")
        }
        test.clock.advance(by: .seconds(59))
        try await app.nudge(authenticatedUserId: "a", friendId: "b")
        let nudges = try await app.inbox(authenticatedUserId: "b", of: "b").filter { $0.kind == .nudge }
        #expect(nudges.count == 2)
    }

    @Test("Rapid concurrent taps deliver one nudge")
    func rapidTaps() async throws {
        let (app, _) = makeUFree()
        try await befriend(app, "a", "b")
        async let t1: Bool = (try? await app.nudge(authenticatedUserId: "a", friendId: "b")) != nil
        async let t2: Bool = (try? await app.nudge(authenticatedUserId: "a", friendId: "b")) != nil
        async let t3: Bool = (try? await app.nudge(authenticatedUserId: "a", friendId: "b")) != nil
        let delivered = [await t1, await t2, await t3].filter { $0 }.count
        #expect(delivered == 1)
        #expect(try await app.inbox(authenticatedUserId: "b", of: "b").filter { $0.kind == .nudge }.count == 1)
    }

    @Test("Variant client-tap-guard-only delivers taps a second apart")
    func clientTapGuardVariant() async throws {
        let (app, test) = makeUFree(.clientTapGuardOnly)
        try await befriend(app, "a", "b")
        try await app.nudge(authenticatedUserId: "a", friendId: "b")
        test.clock.advance(by: .seconds(1))
        try await app.nudge(authenticatedUserId: "a", friendId: "b")
        #expect(try await app.inbox(authenticatedUserId: "b", of: "b").filter { $0.kind == .nudge }.count == 2)
    }

    @Test("Nudge All nudges free friends only and reports failures")
    func nudgeAll() async throws {
        let (app, _) = makeUFree()
        for friend in ["b", "c", "d"] { try await befriend(app, "a", friend) }
        try await app.setAvailability(authenticatedUserId: "b", userId: "b", day: jan12, status: .free)
        try await app.setAvailability(authenticatedUserId: "c", userId: "c", day: jan12, status: .busy)
        try await app.setAvailability(authenticatedUserId: "d", userId: "d", day: jan12, status: .free)
        try await app.nudge(authenticatedUserId: "a", friendId: "d")
        let result = try await app.nudgeAllFree(authenticatedUserId: "a", on: jan12)
        #expect(result.nudgedFriendIds == ["b"])
        #expect(result.failures == [UFreeNudgeAllResult.Failure(friendId: "d", error: .nudgeTooSoon(fromUserId: "a", toUserId: "d", retryAfterSeconds: 60))])
    }

    @Test("Who's-free heatmap counts free and partly free friends per day")
    func heatmap() async throws {
        let (app, _) = makeUFree()
        for friend in ["b", "c", "d"] { try await befriend(app, "a", friend) }
        let jan13 = jan12.adding(days: 1)
        try await app.setAvailability(authenticatedUserId: "b", userId: "b", day: jan12, status: .free)
        try await app.setAvailability(authenticatedUserId: "c", userId: "c", day: jan12, status: .eveningOnly)
        try await app.setAvailability(authenticatedUserId: "d", userId: "d", day: jan12, status: .free)
        try await app.setAvailability(authenticatedUserId: "d", userId: "d", day: jan13, status: .busy)
        let map = try await app.whosFreeHeatmap(authenticatedUserId: "a", days: [jan12, jan13])
        #expect(map == [UFreeHeatmapDay(day: jan12, freeCount: 2, partlyFreeCount: 1), UFreeHeatmapDay(day: jan13, freeCount: 0, partlyFreeCount: 0)])
    }

    @Test("Inbox: newest first, unread badge, mark read, owner only")
    func inbox() async throws {
        let (app, test) = makeUFree()
        try await befriend(app, "a", "b")
        try await app.sendFriendRequest(authenticatedUserId: "c", to: "b")
        test.clock.advance(by: .seconds(5))
        try await app.nudge(authenticatedUserId: "a", friendId: "b")
        let inbox = try await app.inbox(authenticatedUserId: "b", of: "b")
        #expect(inbox.map(\.kind) == [.nudge, .friendRequest, .friendRequest])
        #expect(try await app.unreadCount(authenticatedUserId: "b", of: "b") == 3)
        try await app.markRead(authenticatedUserId: "b", of: "b", notificationId: inbox[0].notificationId)
        #expect(try await app.unreadCount(authenticatedUserId: "b", of: "b") == 2)
        try await app.markAllRead(authenticatedUserId: "b", of: "b")
        #expect(try await app.unreadCount(authenticatedUserId: "b", of: "b") == 0)
        await #expect(throws: UFreeError.permissionDenied(userId: "a", resource: "users/b/notifications")) { try await app.inbox(authenticatedUserId: "a", of: "b") }
        await #expect(throws: UFreeError.notificationNotFound(notificationId: "nope")) {
            try await app.markRead(authenticatedUserId: "b", of: "b", notificationId: "nope")
        }
    }

    @Test("Same inputs give the same inboxes")
    func determinism() async throws {
        var runs: [[String]] = []
        for _ in 0..<2 {
            let (app, test) = makeUFree()
            try await befriend(app, "a", "b")
            try await app.sendFriendRequest(authenticatedUserId: "c", to: "b")
            test.clock.advance(by: .seconds(61))
            try await app.nudge(authenticatedUserId: "a", friendId: "b")
            runs.append(try await app.inbox(authenticatedUserId: "b", of: "b").map { "\($0.notificationId) \($0.createdAt)" })
        }
        #expect(runs[0] == runs[1])
    }

    @Test("Every variant has a kebab-case name and a description")
    func variantNames() {
        for variant in UFreeVariant.allCases {
            #expect(UFreeVariant(rawValue: variant.rawValue) == variant)
            #expect(!variant.summary.isEmpty)
        }
    }
}
