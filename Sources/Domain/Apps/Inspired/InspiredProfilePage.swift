import SimulatedFirebase
import Synchronization

/// An open profile page (§ 3 "Profile view"): a live listener on `users/{target}` shows each
/// snapshot as it arrives. Access revoked while the page is open (the profile made private, a
/// shared community left) ends the listener with PERMISSION_DENIED (MODEL_RULES §18).
///
/// Careful design: on the listener's error the page replaces the profile with "This profile is
/// now private." `profile-page-ignores-listen-error`: the page keeps the last snapshot.
public final class InspiredProfilePage: Sendable {
    /// The profile shown.
    public let targetId: String
    private struct State {
        var shown: Fields?
        var ended: BackendError?
        var listener: SnapshotListener?
    }
    private let state = Mutex(State())
    private let client: InspiredClient
    private let keepsLastSnapshot: Bool

    init(client: InspiredClient, targetId: String) {
        self.client = client
        self.targetId = targetId
        keepsLastSnapshot = client.app.variant == .profilePageIgnoresListenError
    }

    /// Opens the page: starts the listener.
    public func open() {
        let listener = client.firestore.listen(document: InspiredApp.user(targetId), onError: { [self] error in
            state.withLock { state in
                state.ended = error
                if !keepsLastSnapshot { state.shown = nil }
            }
        }) { [self] changes in
            guard let last = changes.last else { return }
            state.withLock { $0.shown = last.after.fields }
        }
        state.withLock { $0.listener = listener }
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

    /// The error that ended the page's listener, if one did.
    public var endedWith: BackendError? { state.withLock { $0.ended } }
}

extension InspiredClient {
    /// Opens `userId`'s profile page (call `open()`, later `close()`).
    public func profilePage(of userId: String) -> InspiredProfilePage {
        InspiredProfilePage(client: self, targetId: userId)
    }
}
