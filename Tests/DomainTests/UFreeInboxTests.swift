@testable import Domain
@testable import SimulatedFirebase
import Testing

/// The notification center of a device: a real-time listener keeps its copy, so a read on the
/// user's other device lowers its badge; the literal event counter does not.
@Suite struct UFreeInboxTests {
    /// Two friends, `b` nudges `a` twice (a cooldown apart); `a` has a phone and a tablet open.
    private func setUp(_ variant: UFreeVariant) async throws -> (UFreeApp, UFreeInbox, UFreeInbox) {
        let backend = makeBackend()
        let app = UFreeApp(backend: backend, variant: variant, nudgeCooldown: .seconds(1))
        for user in ["a", "b"] { try await app.client(uid: user).registerUser(displayName: user, timeZoneIdentifier: "America/Los_Angeles") }
        try await app.client(uid: "b").sendFriendRequest(to: "a")
        try await app.client(uid: "a").respondToFriendRequest(from: "b", accept: true)
        let phone = app.inbox(userId: "a", device: "a/phone"), tablet = app.inbox(userId: "a", device: "a/tablet")
        phone.open()
        tablet.open()
        try await app.client(uid: "b").nudge("a")
        try await backend.env.clock.sleep(for: .seconds(2))
        try await app.client(uid: "b").nudge("a")
        await backend.waitUntilIdle()
        return (app, phone, tablet)
    }

    @Test func aReadOnOneDeviceLowersTheOtherDevicesBadge() async throws {
        let (app, phone, tablet) = try await setUp(.careful)
        let unread = app.backend.firestore.query("users/a/notifications") { $0["read"] != .bool(true) }.count
        #expect(unread == 3 && phone.badge == 3 && tablet.badge == 3)  // the friend request and two nudges
        let first = try #require(phone.unreadIds.first)
        try await phone.markRead(first)
        #expect(phone.badge == 2)  // at once, before the listener answers
        await app.backend.waitUntilIdle()
        #expect(tablet.badge == 2 && tablet.unreadIds == phone.unreadIds)
        #expect(phone.notificationIds == app.backend.firestore.query("users/a/notifications").map(\.id).sorted())
        phone.close()
        tablet.close()
    }

    @Test func theEventCounterMissesAReadOnTheOtherDevice() async throws {
        let (app, phone, tablet) = try await setUp(.badgeCountsEvents)
        try await phone.markRead(try #require(phone.unreadIds.first))
        await app.backend.waitUntilIdle()
        #expect(phone.badge == 2)
        #expect(tablet.badge == 3, "the literal counter should not see the phone's read")
        phone.close()
        tablet.close()
    }

    @Test func aFailedReadGoesBackToWhatTheServerSaid() async throws {
        let (app, phone, tablet) = try await setUp(.careful)
        await #expect(throws: UFreeError.notificationNotFound(notificationId: "missing")) { try await phone.markRead("missing") }
        #expect(phone.badge == 3)
        _ = app
        phone.close()
        tablet.close()
    }
}
