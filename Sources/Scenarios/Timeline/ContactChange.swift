import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase

/// The Settings screen's rules for editing emergency contacts, applied to a `CheckInEvent`
/// contact row: no duplicates, only existing contacts can be removed or edited, and an onboarded
/// user keeps at least one contact (the email needs someone to go to).
enum ContactChange {
    /// The new list and the table text, or why the change is refused.
    static func apply(_ action: CheckInEvent.Action, to contacts: [String], onboarded: Bool) -> Result<([String], String), Refusal> {
        var list = contacts
        switch action {
        case .addContact(let email):
            guard !list.contains(email) else { return .failure(Refusal("\(email) is already an emergency contact")) }
            list.append(email)
            return .success((list, "emergency contact added: \(email)"))
        case .removeContact(let email):
            guard let index = list.firstIndex(of: email) else { return .failure(Refusal("\(email) is not an emergency contact")) }
            guard !onboarded || list.count > 1 else { return .failure(Refusal("\(email) is the only emergency contact; add another first")) }
            list.remove(at: index)
            return .success((list, "emergency contact removed: \(email)"))
        case .editContact(let old, let new):
            guard let index = list.firstIndex(of: old) else { return .failure(Refusal("\(old) is not an emergency contact")) }
            guard old == new || !list.contains(new) else { return .failure(Refusal("\(new) is already an emergency contact")) }
            list[index] = new
            return .success((list, "emergency contact changed: \(old) -> \(new)"))
        default:
            return .failure(Refusal("not a contact change"))
        }
    }

    /// Why a contact change was refused (shown in the table).
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
