import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// The names each bidder chose, kept by the scenario itself (the oracle of
/// `bidder-names-current`: it never reads `users/{email}.name`).
final class NameBook: Sendable {
    private let latest: Mutex<[String: String]>

    init(_ clients: [KNBClient]) {
        latest = Mutex(Dictionary(uniqueKeysWithValues: clients.map { ($0.email, $0.name) }))
    }

    func chose(_ email: String, _ name: String) { latest.withLock { $0[email] = name } }

    func name(of email: String) -> String? { latest.withLock { $0[email] } }
}
