@testable import Domain
@testable import SimulatedFirebase
import Testing

/// Jan 12, 2026 at 6:00 PM in Los Angeles (Jan 13, 02:00 UTC), as seconds after the test epoch.
private let laEveningOffsetSeconds: Int64 = 1_768_269_600 - testEpochUnixNanoseconds / 1_000_000_000
private let jan12 = UFreeDay(year: 2026, month: 1, day: 12)

private func device(_ backend: Backend, _ uid: String) -> FirestoreClient {
    backend.client(auth: AuthContext(uid: uid), label: uid)
}

private func makeUFree(_ variant: UFreeVariant = .careful, users: [String] = ["a", "b", "c", "d"]) async throws -> (UFreeApp, Backend) {
    let backend = makeBackend()
    let app = UFreeApp(backend: backend, variant: variant)
    try await backend.env.clock.sleep(until: Timestamp(unixNanoseconds: testEpochUnixNanoseconds) + .seconds(laEveningOffsetSeconds))
    for user in users {
        try await app.client(uid: user).registerUser(displayName: user.uppercased(), timeZoneIdentifier: "America/Los_Angeles")
    }
    return (app, backend)
}

private func befriend(_ app: UFreeApp, _ backend: Backend, _ first: String, _ second: String) async throws {
    try await app.client(uid: first).sendFriendRequest(to: second)
    try await app.client(uid: second).respondToFriendRequest(from: first, accept: true)
}

private func nudgeCount(_ app: UFreeApp, _ backend: Backend, _ uid: String) async throws -> Int {
    try await app.client(uid: uid).inbox().filter { $0.kind == .nudge }.count
}

@Suite("UFree")
struct UFreeTests {
    @Test("Five stored states round-trip as Int 0-4; unknown is no document")
    func fiveStates() async throws {
        #expect(UFreeAvailabilityStatus.allCases.map(\.rawValue) == [0, 1, 2, 3, 4])
        let (app, backend) = try await makeUFree()
        for (offset, status) in UFreeAvailabilityStatus.allCases.enumerated() {
            try await app.client(uid: "a").setAvailability(day: jan12.adding(days: offset), status: status, note: "n\(offset)")
            let stored = try await app.client(uid: "b").availability(of: "a", on: jan12.adding(days: offset))
            #expect(stored?.status == status)
            #expect(stored?.note == "n\(offset)")
        }
        #expect(try await app.client(uid: "b").availability(of: "a", on: jan12.adding(days: 9)) == nil)
        #expect(jan12.adding(days: 20).key == "2026-02-01")
    }

    @Test("Past dates are rejected; today is the user's local day")
    func noPastDates() async throws {
        let (app, backend) = try await makeUFree()
        #expect(try await app.client(uid: "a").today() == jan12)
        try await app.client(uid: "a").setAvailability(day: jan12, status: .free)
        await #expect(throws: UFreeError.cannotUpdatePastDate(day: "2026-01-11", today: "2026-01-12")) {
            try await app.client(uid: "a").setAvailability(day: jan12.adding(days: -1), status: .busy)
        }
    }

    @Test("Variant utc-today rejects today's status for an evening user in Los Angeles")
    func utcTodayVariant() async throws {
        let (app, backend) = try await makeUFree(.utcToday)
        await #expect(throws: UFreeError.cannotUpdatePastDate(day: "2026-01-12", today: "2026-01-13")) {
            try await app.client(uid: "a").setAvailability(day: jan12, status: .free)
        }
    }

    @Test("Only the owner writes availability; signed-out callers are rejected")
    func availabilityPermissions() async throws {
        let (app, backend) = try await makeUFree()
        let error = await backendError { try await device(backend, "b").setData(UFreeApp.availability("a", jan12), ["status": 0]) }
        #expect(error?.code == "PERMISSION_DENIED")
        await #expect(throws: UFreeError.unauthenticated) {
            try await app.client(uid: nil).setAvailability(day: jan12, status: .free)
        }
        await #expect(throws: UFreeError.userNotFound(userId: "zz")) { try await app.client(uid: "a").sendFriendRequest(to: "zz") }
    }

    @Test("Handshake: request, notification, accept, friends on both sides")
    func handshake() async throws {
        let (app, backend) = try await makeUFree()
        #expect(try await app.client(uid: "a").sendFriendRequest(to: "b") == .requested)
        let inbox = try await app.client(uid: "b").inbox()
        #expect(inbox.map(\.kind) == [.friendRequest])
        #expect(inbox.first?.senderId == "a")
        #expect(await app.friendIds(of: "a").isEmpty)
        #expect(try await app.client(uid: "b").respondToFriendRequest(from: "a", accept: true) == .becameFriends)
        #expect(await app.friendIds(of: "a") == ["b"])
        #expect(await app.friendIds(of: "b") == ["a"])
        #expect(app.friendshipCount("a", "b") == 1)
    }

    @Test("Friend request rejections are typed")
    func friendRequestRejections() async throws {
        let (app, backend) = try await makeUFree()
        await #expect(throws: UFreeError.cannotFriendYourself(userId: "a")) { try await app.client(uid: "a").sendFriendRequest(to: "a") }
        try await app.client(uid: "a").sendFriendRequest(to: "b")
        await #expect(throws: UFreeError.alreadyRequested(fromUserId: "a", toUserId: "b")) { try await app.client(uid: "a").sendFriendRequest(to: "b") }
        await #expect(throws: UFreeError.noPendingRequest(fromUserId: "c", toUserId: "b")) {
            try await app.client(uid: "b").respondToFriendRequest(from: "c", accept: true)
        }
        #expect(try await app.client(uid: "b").respondToFriendRequest(from: "a", accept: false) == .declined)
        #expect(app.friendshipCount("a", "b") == 0)
        try await backend.env.clock.sleep(for: .seconds(10))  // stay under the pair document's ~1 write/s
        try await befriend(app, backend, "a", "b")
        await #expect(throws: UFreeError.alreadyFriends(userId: "b", friendId: "a")) { try await app.client(uid: "b").sendFriendRequest(to: "a") }
    }

    @Test("Both sides sending at once end in exactly one friendship")
    func crossingRequests() async throws {
        let (app, backend) = try await makeUFree()
        async let first = app.client(uid: "a").sendFriendRequest(to: "b")
        async let second = app.client(uid: "b").sendFriendRequest(to: "a")
        let outcomes = [try await first, try await second]
        #expect(outcomes.contains(.requested))
        #expect(outcomes.contains(.becameFriends))
        #expect(app.friendshipCount("a", "b") == 1)
        #expect(await app.friendIds(of: "a") == ["b"])
        #expect(await app.friendIds(of: "b") == ["a"])
    }

    @Test("Variant two-way-requests makes two friendships and leaves a ghost after removal")
    func twoWayRequestsVariant() async throws {
        let (app, backend) = try await makeUFree(.twoWayRequests)
        try await app.client(uid: "a").sendFriendRequest(to: "b")
        try await app.client(uid: "b").sendFriendRequest(to: "a")
        try await app.client(uid: "b").respondToFriendRequest(from: "a", accept: true)
        try await app.client(uid: "a").respondToFriendRequest(from: "b", accept: true)
        #expect(app.friendshipCount("a", "b") == 2)
        try await app.client(uid: "a").removeFriend("b")
        #expect(await app.friendIds(of: "a").isEmpty)
        #expect(app.friendshipCount("a", "b") == 1)
    }

    @Test("Removal is bidirectional; removing a non-friend is rejected")
    func removeFriend() async throws {
        let (app, backend) = try await makeUFree()
        try await befriend(app, backend, "a", "b")
        try await app.client(uid: "b").removeFriend("a")
        #expect(await app.friendIds(of: "a").isEmpty)
        #expect(await app.friendIds(of: "b").isEmpty)
        #expect(app.friendshipCount("a", "b") == 0)
        await #expect(throws: UFreeError.notFriends(userId: "a", otherUserId: "b")) { try await app.client(uid: "a").removeFriend("b") }
        try await befriend(app, backend, "b", "a")
        #expect(await app.friendIds(of: "a") == ["b"])
    }

    @Test("Nobody but the two members can add themselves to someone's friendIds")
    func friendIdsRule() async throws {
        let (_, backend) = try await makeUFree()
        let error = await backendError { try await device(backend, "c").updateData(UFreeApp.user("a"), ["friendIds": .arrayUnion(["d"])]) }
        #expect(error?.code == "PERMISSION_DENIED")
    }

    @Test("Nudges need a friendship and respect the cooldown")
    func nudgeCooldown() async throws {
        let (app, backend) = try await makeUFree()
        await #expect(throws: UFreeError.notFriends(userId: "a", otherUserId: "b")) { try await app.client(uid: "a").nudge("b") }
        try await befriend(app, backend, "a", "b")
        try await app.client(uid: "a").nudge("b")
        try await backend.env.clock.sleep(for: .seconds(1))
        await #expect(throws: UFreeError.nudgeTooSoon(fromUserId: "a", toUserId: "b", retryAfterSeconds: 59)) {
            try await app.client(uid: "a").nudge("b")
        }
        try await backend.env.clock.sleep(for: .seconds(59))
        try await app.client(uid: "a").nudge("b")
        #expect(try await nudgeCount(app, backend, "b") == 2)
    }

    @Test("Rapid concurrent taps deliver one nudge")
    func rapidTaps() async throws {
        let (app, backend) = try await makeUFree()
        try await befriend(app, backend, "a", "b")
        let client = app.client(uid: "a")
        async let t1: Bool = (try? await client.nudge("b")) != nil
        async let t2: Bool = (try? await client.nudge("b")) != nil
        async let t3: Bool = (try? await client.nudge("b")) != nil
        let delivered = [await t1, await t2, await t3].filter { $0 }.count
        #expect(delivered == 1)
        #expect(try await nudgeCount(app, backend, "b") == 1)
    }

    @Test("Variant client-tap-guard-only delivers taps a second apart")
    func clientTapGuardVariant() async throws {
        let (app, backend) = try await makeUFree(.clientTapGuardOnly)
        try await befriend(app, backend, "a", "b")
        try await app.client(uid: "a").nudge("b")
        try await backend.env.clock.sleep(for: .seconds(1))
        try await app.client(uid: "a").nudge("b")
        #expect(try await nudgeCount(app, backend, "b") == 2)
    }

    @Test("Nudge All nudges free friends only and reports failures")
    func nudgeAll() async throws {
        let (app, backend) = try await makeUFree()
        for friend in ["b", "c", "d"] { try await befriend(app, backend, "a", friend) }
        try await app.client(uid: "b").setAvailability(day: jan12, status: .free)
        try await app.client(uid: "c").setAvailability(day: jan12, status: .busy)
        try await app.client(uid: "d").setAvailability(day: jan12, status: .free)
        try await app.client(uid: "a").nudge("d")
        let result = try await app.client(uid: "a").nudgeAllFree(on: jan12)
        #expect(result.nudgedFriendIds == ["b"])
        #expect(result.failures.map(\.friendId) == ["d"])
        if case .nudgeTooSoon(fromUserId: "a", toUserId: "d", _)? = result.failures.first?.error {} else {
            Issue.record("expected nudgeTooSoon, got \(String(describing: result.failures.first?.error))")
        }
    }

    @Test("Who's-free heatmap counts free and partly free friends per day")
    func heatmap() async throws {
        let (app, backend) = try await makeUFree()
        for friend in ["b", "c", "d"] { try await befriend(app, backend, "a", friend) }
        let jan13 = jan12.adding(days: 1)
        try await app.client(uid: "b").setAvailability(day: jan12, status: .free)
        try await app.client(uid: "c").setAvailability(day: jan12, status: .eveningOnly)
        try await app.client(uid: "d").setAvailability(day: jan12, status: .free)
        try await app.client(uid: "d").setAvailability(day: jan13, status: .busy)
        let map = try await app.client(uid: "a").whosFreeHeatmap(days: [jan12, jan13])
        #expect(map == [UFreeHeatmapDay(day: jan12, freeCount: 2, partlyFreeCount: 1), UFreeHeatmapDay(day: jan13, freeCount: 0, partlyFreeCount: 0)])
    }

    @Test("Inbox: newest first, unread badge, mark read, owner only")
    func inbox() async throws {
        let (app, backend) = try await makeUFree()
        try await befriend(app, backend, "a", "b")
        try await backend.env.clock.sleep(for: .seconds(1))
        try await app.client(uid: "c").sendFriendRequest(to: "b")
        try await backend.env.clock.sleep(for: .seconds(5))
        try await app.client(uid: "a").nudge("b")
        let inbox = try await app.client(uid: "b").inbox()
        #expect(inbox.map(\.kind) == [.nudge, .friendRequest, .friendRequest])
        #expect(inbox.map(\.senderId) == ["a", "c", "a"])
        #expect(try await app.client(uid: "b").unreadCount() == 3)
        try await app.client(uid: "b").markRead(inbox[0].notificationId)
        #expect(try await app.client(uid: "b").unreadCount() == 2)
        try await app.client(uid: "b").markAllRead()
        #expect(try await app.client(uid: "b").unreadCount() == 0)
        let error = await backendError { _ = try await device(backend, "a").get(UFreeApp.notification("b", inbox[0].notificationId)) }
        #expect(error?.code == "PERMISSION_DENIED")
        await #expect(throws: UFreeError.notificationNotFound(notificationId: "nope")) { try await app.client(uid: "b").markRead("nope") }
    }

    @Test("Same inputs and seed give the same inboxes")
    func determinism() async throws {
        var runs: [[String]] = []
        for _ in 0..<2 {
            let (app, backend) = try await makeUFree()
            try await befriend(app, backend, "a", "b")
            try await app.client(uid: "c").sendFriendRequest(to: "b")
            try await backend.env.clock.sleep(for: .seconds(61))
            try await app.client(uid: "a").nudge("b")
            runs.append(try await app.client(uid: "b").inbox().map { "\($0.notificationId) \($0.createdAt)" })
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
