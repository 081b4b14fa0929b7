import Harness
import SimulatedFirebase

/// A real Firestore a Firebase load profile can run on (`rehearse load … --backend emulator`):
/// each backend gets a project of its own, and the server's trigger events for that project reach
/// it (`Backend.deliverRemoteEvent`).
public protocol FirestoreLoadServer: LoadServer {
    /// A new project on the server for one backend of `scenario`'s run.
    func newProject(for scenario: String) -> any FirestoreRemote
    /// Delivers the events of `backend`'s project (its `remote`) to it from now on.
    func attach(_ backend: Backend)
}
