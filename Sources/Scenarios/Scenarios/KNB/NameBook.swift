import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

/// The names each bidder chose, kept by the scenario itself (the oracle of
/// `bidder-names-current`): it reads `users/{email}.name` only for a rename whose outcome the app
/// could not tell, as an indeterminate operation is settled by the state it left.
final class NameBook: Sendable {
    /// Per bidder the name they chose last, or nil while the app could not tell whether their last
    /// rename landed (the profile then says which name stands).
    private let latest: Mutex<[String: String?]>

    init(_ clients: [KNBClient]) {
        latest = Mutex(Dictionary(uniqueKeysWithValues: clients.map { ($0.email, Optional($0.name)) }))
    }

    func chose(_ email: String, _ name: String?) { latest.withLock { $0[email] = .some(name) } }

    /// The name `email` chose last; for a rename of unknown outcome, the one their profile holds.
    func name(of email: String, in firestore: Firestore) -> String? {
        guard let known = latest.withLock({ $0[email] }) else { return nil }
        return known ?? firestore.liveFields(DocumentPath("users", email))?["name"]?.stringValue
    }
}
