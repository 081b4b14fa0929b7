import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// What users were told succeeded (user, document), in the order they were told.
final class ConfirmedLog: Sendable {
    private let state = Mutex<[(user: String, path: DocumentPath)]>([])
    func append(user: String, path: DocumentPath) { state.withLock { $0.append((user, path)) } }
    var entries: [(user: String, path: DocumentPath)] { state.withLock { $0 } }
}
