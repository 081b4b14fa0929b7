import SimulatedFirebase

/// The UFree iOS app of one signed-in user: every action goes through the user's `FirestoreClient`, so it pays network faults and
/// is checked by UFree's rules; each throws `UFreeError` (`.backend` for what the backend refused).
public final class UFreeClient: Sendable {
    /// The signed-in user's id (nil: signed out).
    public var uid: String? { firestore.auth?.uid }
    /// The device's view of the backend (its network and auth).
    public let firestore: FirestoreClient
    let app: UFreeApp

    init(app: UFreeApp, firestore: FirestoreClient) {
        self.app = app
        self.firestore = firestore
    }

    /// Signs the caller up (anonymous auth): creates `users/{uid}`; a repeat is a no-op.
    public func registerUser(displayName: String, timeZoneIdentifier: String) async throws(UFreeError) {
        try await app.registerUser(displayName: displayName, timeZoneIdentifier: timeZoneIdentifier, as: firestore)
    }

    /// "Today" for the caller: the local day in their time zone (UTC in the `utc-today` variant).
    public func today() async throws(UFreeError) -> UFreeDay {
        try await app.today(as: firestore)
    }

    /// Sets the caller's status for `day`, never for a day before their local today.
    public func setAvailability(day: UFreeDay, status: UFreeAvailabilityStatus, note: String? = nil) async throws(UFreeError) {
        try await app.setAvailability(day: day, status: status, note: note, as: firestore)
    }

    /// `userId`'s status for `day` (any signed-in user may read it), nil if unknown.
    public func availability(of userId: String, on day: UFreeDay) async throws(UFreeError) -> UFreeDayAvailability? {
        try await app.availability(of: userId, on: day, as: firestore)
    }

    /// Sends a friend request. Careful design: one transaction on the pair's document; if the
    /// other user already asked the caller, the handshake completes and they become friends, so
    /// two users asking each other at once end with exactly one friendship.
    @discardableResult
    public func sendFriendRequest(to recipientId: String) async throws(UFreeError) -> UFreeFriendshipOutcome {
        try await app.sendFriendRequest(to: recipientId, as: firestore)
    }

    /// Accepts or declines the pending request from `requesterId` to the caller.
    @discardableResult
    public func respondToFriendRequest(from requesterId: String, accept: Bool) async throws(UFreeError) -> UFreeFriendshipOutcome {
        try await app.respondToFriendRequest(from: requesterId, accept: accept, as: firestore)
    }

    /// Removes the friendship on both sides (bidirectional swipe-to-remove).
    public func removeFriend(_ friendId: String) async throws(UFreeError) {
        try await app.removeFriend(friendId, as: firestore)
    }

    /// Sends a nudge to a friend. Careful design: the recipient-side marker
    /// `nudge_senders/{sender}` and the notification commit in one transaction, so rapid taps or
    /// two devices deliver one nudge per `nudgeCooldown`; the others get `nudgeTooSoon`.
    public func nudge(_ friendId: String) async throws(UFreeError) {
        try await app.nudge(friendId, as: firestore)
    }

    /// "Nudge All": nudges every friend whose status on `day` is free, in friend-id order; one
    /// failure does not stop the others, including a failed read of one friend's status (that
    /// friend is reported in `unreadable`, not nudged), so the nudges already sent are reported.
    public func nudgeAllFree(on day: UFreeDay) async throws(UFreeError) -> UFreeNudgeAllResult {
        try await app.nudgeAllFree(on: day, as: firestore)
    }

    /// "Who's free on…": for each of `days`, how many of the caller's friends are free or partly free.
    public func whosFreeHeatmap(days: [UFreeDay]) async throws(UFreeError) -> [UFreeHeatmapDay] {
        try await app.whosFreeHeatmap(days: days, as: firestore)
    }

    /// The caller's notifications, newest first.
    public func inbox() async throws(UFreeError) -> [UFreeNotification] {
        try await app.inbox(as: firestore)
    }

    /// The unread badge.
    public func unreadCount() async throws(UFreeError) -> Int {
        try await app.unreadCount(as: firestore)
    }

    /// Marks one notification of the user's inbox read.
    public func markRead(_ notificationId: String) async throws(UFreeError) {
        try await app.markRead(notificationId, as: firestore)
    }

    /// Registers the caller's phone number (as typed, in `region` "US" or "GB") for contact discovery.
    public func registerPhoneNumber(_ raw: String, region: String) async throws(UFreeError) {
        try await app.registerPhoneNumber(raw, region: region, as: firestore)
    }

    /// Looks up address-book `entries` (as the book holds them, dialled from `region`): the UFree
    /// users among them, and how many the daily quota left unanswered.
    public func discoverContacts(_ entries: [String], region: String) async throws(UFreeError) -> UFreeDiscoveryResult {
        try await app.discoverContacts(entries, region: region, as: firestore)
    }

    /// Two lookups pipelined on one connection: one network round trip (paid by the caller,
    /// e.g. a sleep), then both requests reach the function in the same instant.
    public func discoverContactsPipelined(_ first: [String], _ second: [String], region: String)
        async -> (Result<UFreeDiscoveryResult, UFreeError>, Result<UFreeDiscoveryResult, UFreeError>)
    {
        let lookup: @Sendable ([String]) async -> Result<UFreeDiscoveryResult, UFreeError> = { [app, firestore] entries in
            do throws(UFreeError) { return .success(try await app.discoverContacts(entries, region: region, overNetwork: false, as: firestore)) } catch { return .failure(error) }
        }
        async let a = lookup(first)
        async let b = lookup(second)
        return (await a, await b)
    }

    /// Marks every unread notification of the user's inbox read, one by one.
    public func markAllRead() async throws(UFreeError) {
        try await app.markAllRead(as: firestore)
    }
}

extension UFreeApp {
    /// The app on one user's device, signed in as `uid` (nil: signed out).
    public func client(uid: String?) -> UFreeClient {
        UFreeClient(app: self, firestore: backend.client(auth: uid.map { AuthContext(uid: $0) }, label: uid ?? "signed-out"))
    }
}
