import SimulatedFirebase
import Synchronization

/// The notification center of one device (seed: "Notification Center: Real-time bell icon +
/// badge, inbox view with read/unread states", "Real-time Sync: AsyncStream listeners"): a
/// real-time listener on `users/{uid}/notifications` keeps the device's copy of the inbox, and the
/// bell's badge is drawn from it (docs/domain.md, "UFree notification inbox").
///
/// Careful design: the badge is the number of unread notifications in the device's copy, which
/// the listener's changes (added, modified, removed) keep equal to the server's; a tap on a
/// notification marks it read in the copy at once (latency compensation) and on the server, and
/// if the write fails the copy goes back to the last state the server sent, so a read on the
/// user's other device, a failed write and a duplicate delivery all end with the server's count.
public final class UFreeInbox: Sendable {
    /// The signed-in user whose inbox it is.
    public let userId: String
    /// The device's label ("u0/phone").
    public let device: String
    let client: FirestoreClient
    let countsEvents: Bool

    private struct State {
        /// The device's copy: the server's last fields per notification, and local overrides.
        var server: [String: Fields] = [:]
        var readLocally: Set<String> = []
        /// `badge-counts-events`: the view model's counter.
        var counter = 0
        var listener: SnapshotListener?
    }
    private let state = Mutex(State())

    init(app: UFreeApp, userId: String, device: String) {
        self.userId = userId
        self.device = device
        self.client = app.backend.client(auth: AuthContext(uid: userId), label: device)
        self.countsEvents = app.variant == .badgeCountsEvents
    }

    /// Opens the inbox: starts the listener (its first batch holds the existing notifications).
    public func open() {
        let listener = client.listen("users/\(userId)/notifications") { [self] changes in apply(changes) }
        state.withLock { $0.listener = listener }
    }

    /// Closes the inbox: stops the listener.
    public func close() {
        let listener = state.withLock { state -> SnapshotListener? in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.remove()
    }

    private func apply(_ changes: [DocumentChange]) {
        state.withLock { state in
            for change in changes {
                let id = change.path.id
                if let fields = change.after.fields {
                    if countsEvents && change.kind == .create && fields["read"] != .bool(true) { state.counter += 1 }
                    state.server[id] = fields
                    if fields["read"] == .bool(true) { state.readLocally.remove(id) }
                } else {
                    state.server[id] = nil
                    state.readLocally.remove(id)
                }
            }
        }
    }

    /// The bell's badge.
    public var badge: Int {
        state.withLock { state in
            if countsEvents { return state.counter }
            return state.server.count { $0.value["read"] != .bool(true) && !state.readLocally.contains($0.key) }
        }
    }

    /// The ids the device shows, sorted.
    public var notificationIds: [String] { state.withLock { $0.server.keys.sorted() } }

    /// The ids the device shows as unread, sorted.
    public var unreadIds: [String] {
        state.withLock { state in state.server.filter { $0.value["read"] != .bool(true) && !state.readLocally.contains($0.key) }.keys.sorted() }
    }

    /// The user taps notification `id`: it shows read at once and is marked read on the server.
    public func markRead(_ id: String) async throws(UFreeError) {
        state.withLock { state in
            if countsEvents { state.counter -= 1 } else { state.readLocally.insert(id) }
        }
        do {
            _ = try await client.updateData(UFreeApp.notification(userId, id), ["read": .set(true)])
        } catch {
            // Back to what the server last said (a timed-out write that did apply arrives later
            // through the listener).
            if !countsEvents { _ = state.withLock { $0.readLocally.remove(id) } }
            if case .notFound = error { throw .notificationNotFound(notificationId: id) }
            throw .backend(error)
        }
    }
}

extension UFreeApp {
    /// The notification center of `device` ("u0/phone"), signed in as `userId`; call `open()`.
    public func inbox(userId: String, device: String) -> UFreeInbox {
        UFreeInbox(app: self, userId: userId, device: device)
    }
}
