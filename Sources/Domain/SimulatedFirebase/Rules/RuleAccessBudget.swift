import Synchronization

/// The documents one evaluation of a request's rules may read with `get()`/`exists()`: 10
/// distinct documents for a single-document read or one write, 20 for a query; the writes of one
/// commit also share 20 between them. A document read twice counts once. Past a limit the request
/// is denied, as the emulator denies it (docs/domain.md, "Rules").
final class RuleAccessBudget: Sendable {
    /// The limit of a single-document read, and of each write's rules.
    static let singleDocument = 10
    /// The limit of a query, and of all the writes of a commit together.
    static let multiDocument = 20

    private let limit: Int
    private let firestore: Firestore
    /// The commit's budget this write's rules also draw on.
    private let commit: RuleAccessBudget?
    private let state = Mutex<(paths: [DocumentPath], exceeded: Bool)>(([], false))

    init(limit: Int, firestore: Firestore, within commit: RuleAccessBudget? = nil) {
        precondition(limit > 0, "a rules access limit is positive")
        self.limit = limit
        self.firestore = firestore
        self.commit = commit
    }

    /// Rules' `get()` of `path`: its live fields while the budgets last, nil past one.
    func read(_ path: DocumentPath) -> Fields? {
        let own = admit(path)
        let shared = commit?.admit(path) ?? true
        return own && shared ? firestore.liveFields(path) : nil
    }

    private func admit(_ path: DocumentPath) -> Bool {
        state.withLock { state in
            if state.paths.contains(path) { return true }
            guard state.paths.count < limit else {
                state.exceeded = true
                return false
            }
            state.paths.append(path)
            return true
        }
    }

    /// Whether a read went past this budget or its commit's (the request is then denied).
    var exceeded: Bool { state.withLock { $0.exceeded } || (commit?.exceeded ?? false) }
}
