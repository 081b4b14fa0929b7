import SimulatedFirebase
import Synchronization

/// An open profile page (§ 3 "Profile view"): a live listener on `users/{target}` shows each
/// snapshot as it arrives. Access revoked while the page is open (the profile made private, a
/// shared community left) ends the listener with PERMISSION_DENIED (MODEL_RULES §18).
///
/// Careful design: on the listener's error the page replaces the profile with "This profile is
/// now private."; a first snapshot without the profile says "This account doesn't exist." only
/// if it comes from the server, one from the device's copy (`isFromCache`, the connection down)
/// keeps "Connecting…". `profile-page-ignores-listen-error`: the page keeps the last snapshot;
/// `profile-missing-from-cache`: any snapshot without the profile says it does not exist.
public final class InspiredProfilePage: Sendable {
    /// The profile shown.
    public let targetId: String
    /// Called after each snapshot the page draws (the scenario's eyes on the screen).
    public typealias Redraw = @Sendable (InspiredProfilePage) -> Void
    private struct State {
        var shown: Fields?
        var ended: BackendError?
        var notFound = false
        var openedOffline = false
        var listener: SnapshotListener?
    }
    private let state = Mutex(State())
    private let client: InspiredClient
    private let keepsLastSnapshot: Bool
    private let trustsCache: Bool

    init(client: InspiredClient, targetId: String) {
        self.client = client
        self.targetId = targetId
        keepsLastSnapshot = client.app.variant == .profilePageIgnoresListenError
        trustsCache = client.app.variant == .profileMissingFromCache
    }

    /// Opens the page: starts the listener; `onRedraw` hears of every snapshot drawn.
    public func open(onRedraw: Redraw? = nil) {
        let listener = client.firestore.listen(document: InspiredApp.user(targetId), includeMetadataChanges: false, onError: { [self] error in
            state.withLock { state in
                state.ended = error
                if !keepsLastSnapshot { state.shown = nil }
            }
        }) { [self] snapshot in
            draw(snapshot)
            onRedraw?(self)
        }
        state.withLock { $0.listener = listener }
    }

    private func draw(_ snapshot: ListenerSnapshot) {
        let fromCache = snapshot.metadata.isFromCache
        state.withLock { state in
            if let last = snapshot.changes.last {
                state.shown = last.after.fields
                state.notFound = !last.after.exists
            } else if state.shown == nil {
                // The first snapshot, and no profile in it.
                state.openedOffline = state.openedOffline || fromCache
                state.notFound = !fromCache || trustsCache
            }
        }
    }

    /// Closes the page: stops the listener.
    public func close() {
        let listener = state.withLock { state -> SnapshotListener? in
            defer { state.listener = nil }
            return state.listener
        }
        listener?.remove()
    }

    /// The profile on screen now (nil: nothing, or "This profile is now private.").
    public var shown: Fields? { state.withLock { $0.shown } }

    /// Whether the page says "This account doesn't exist."
    public var saysNotFound: Bool { state.withLock { $0.notFound } }

    /// Whether the page opened with its connection down (its first snapshot from the device's copy).
    public var openedOffline: Bool { state.withLock { $0.openedOffline } }

    /// The error that ended the page's listener, if one did.
    public var endedWith: BackendError? { state.withLock { $0.ended } }
}

extension InspiredClient {
    /// Opens `userId`'s profile page (call `open()`, later `close()`).
    public func profilePage(of userId: String) -> InspiredProfilePage {
        InspiredProfilePage(client: self, targetId: userId)
    }
}
