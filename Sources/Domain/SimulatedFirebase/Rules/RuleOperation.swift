/// The operation a security rule is asked about (Firestore's `get`/`list`/`create`/`update`/`delete`).
public enum RuleOperation: String, Sendable, Hashable, CaseIterable {
    case get, list, create, update, delete
}
