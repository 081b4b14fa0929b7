import SimulatedFirebase
import Synchronization

/// The notification center of one device (seed: "Notification Center: Real-time bell icon +
/// badge, inbox view with read/unread states", "Real-time Sync: AsyncStream listeners"): a
/// real-time listener on `users/{uid}/notifications` keeps the device's copy of the inbox, the
/// bell's badge is drawn from it, and a sync line from its snapshots' metadata (docs/domain.md,
/// "UFree notification inbox").
///
/// Careful design: the copy is what the listener shows. A tap marks the notification read with a
/// plain update, which the listener shows at once (latency compensation) and takes back if the
/// write fails, so a read on the user's other device, a failed write and a duplicate delivery all
/// end with the server's count. The sync line says "✓ Up to date" only for a snapshot from the
/// server with no pending write; a read still on its way shows "Syncing…".
/// `inbox-synced-from-echo`: any snapshot from the server shows "✓ Up to date", the device's own
/// unsaved read included.
public final class UFreeInbox: Sendable {
    /// The signed-in user whose inbox it is.
    public let userId: String
    /// The device's label ("u0/phone").
    public let device: String
    /// Called after each snapshot the inbox draws (the scenario's eyes on the screen).
    public typealias Redraw = @Sendable (UFreeInbox) -> Void
    let client: FirestoreClient
    let countsEvents: Bool
    let trustsEcho: Bool
    /// `mark-all-read-by-query`: the app whose server query picks what "Mark all read" marks.
    let marksAllByQuery: UFreeApp?

    private struct State {
        /// The device's copy: each notification's fields as the listener shows them.
        var shown: [String: Fields] = [:]
        var status = UFreeInboxStatus.loading
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
        self.trustsEcho = app.variant == .inboxSyncedFromEcho
        self.marksAllByQuery = app.variant == .markAllReadByQuery ? app : nil
    }

    /// Opens the inbox: starts the listener (its first snapshot holds the existing notifications);
    /// `onRedraw` hears of every snapshot drawn.
    public func open(onRedraw: Redraw? = nil) {
        let listener = client.listen("users/\(userId)/notifications", includeMetadataChanges: true) { [self] snapshot in
            apply(snapshot)
            onRedraw?(self)
        }
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

    private func apply(_ snapshot: ListenerSnapshot) {
        state.withLock { state in
            for change in snapshot.changes {
                let fields = change.after.fields
                if countsEvents && change.kind == .create && !Self.isRead(fields) { state.counter += 1 }
                state.shown[change.path.id] = fields
            }
            let metadata = snapshot.metadata
            state.status = metadata.isFromCache ? .offline : metadata.hasPendingWrites && !trustsEcho ? .syncing : .synced
        }
    }

    /// The bell's badge.
    public var badge: Int {
        state.withLock { state in countsEvents ? state.counter : state.shown.count { !Self.isRead($0.value) } }
    }

    /// The sync line.
    public var status: UFreeInboxStatus { state.withLock { $0.status } }

    /// The ids the device shows, sorted.
    public var notificationIds: [String] { state.withLock { $0.shown.keys.sorted() } }

    /// The ids the device shows as unread, sorted.
    public var unreadIds: [String] { ids(read: false) }

    /// The ids the device shows as read, sorted.
    public var readIds: [String] { ids(read: true) }

    /// Whether the device shows notification `id`, unread.
    public func showsUnread(_ id: String) -> Bool {
        state.withLock { $0.shown[id].map { !Self.isRead($0) } ?? false }
    }

    private func ids(read: Bool) -> [String] {
        state.withLock { $0.shown.filter { Self.isRead($0.value) == read }.keys.sorted() }
    }

    /// Whether a notification's fields say it is read.
    private static func isRead(_ fields: Fields?) -> Bool { fields?["read"] == .bool(true) }

    /// The user taps notification `id`: it shows read at once (the listener shows the pending
    /// write) and is marked read on the server; if that fails the listener takes it back.
    public func markRead(_ id: String) async throws(UFreeError) {
        if countsEvents { state.withLock { $0.counter -= 1 } }
        do {
            _ = try await client.updateData(UFreeApp.notification(userId, id), ["read": .set(true)])
        } catch {
            if case .notFound = error { throw .notificationNotFound(notificationId: id) }
            throw .backend(error)
        }
    }

    /// The user taps "Mark all read": careful, the notifications the screen shows unread now are
    /// marked, one update each (each shows read at once); one arriving meanwhile stays unread, so
    /// the user still sees it. Stops at the first write that fails (the rest stay unread).
    /// Returns the ids it marked read.
    @discardableResult
    public func markAllRead() async throws(UFreeError) -> [String] {
        if let app = marksAllByQuery { return try await app.markAllRead(as: client) }
        let unread = unreadIds
        for id in unread { try await markRead(id) }
        return unread
    }
}

extension UFreeApp {
    /// The notification center of `device` ("u0/phone"), signed in as `userId`; call `open()`.
    public func inbox(userId: String, device: String) -> UFreeInbox {
        UFreeInbox(app: self, userId: userId, device: device)
    }
}
