import Synchronization

/// The documents one evaluation of a request's rules may read with `get()`/`exists()`: 10
/// distinct documents for a single-document read or one write, 20 for a query; the writes of one
/// commit also share 20 between them. A document read twice counts once. Past a limit the request
/// is denied, as the emulator denies it (docs/domain.md, "Rules"). Reused through `Pool`: an
/// evaluation allocates nothing.
final class RuleAccessBudget: Sendable {
    /// The limit of a single-document read, and of each write's rules.
    static let singleDocument = 10
    /// The limit of a query, and of all the writes of a commit together.
    static let multiDocument = 20

    private struct State {
        var limit: Int
        /// The commit's budget this write's rules also draw on.
        var commit: RuleAccessBudget?
        var paths: [DocumentPath] = []
        var exceeded = false

        mutating func admit(_ path: DocumentPath) -> Bool {
            if paths.contains(path) { return true }
            guard paths.count < limit else {
                exceeded = true
                return false
            }
            paths.append(path)
            return true
        }
    }

    private let firestore: Firestore
    private let state: Mutex<State>

    init(limit: Int, firestore: Firestore, within commit: RuleAccessBudget? = nil) {
        precondition(limit > 0, "a rules access limit is positive")
        self.firestore = firestore
        self.state = Mutex(State(limit: limit, commit: commit))
    }

    /// Rules' `get()` of `path`: its live fields while the budgets last, nil past one.
    func read(_ path: DocumentPath) -> Fields? {
        let (own, commit) = state.withLock { ($0.admit(path), $0.commit) }
        let shared = commit?.admit(path) ?? true
        return own && shared ? firestore.liveFields(path) : nil
    }

    private func admit(_ path: DocumentPath) -> Bool { state.withLock { $0.admit(path) } }

    /// Whether a read went past this budget or its commit's (the request is then denied).
    var exceeded: Bool {
        let (own, commit) = state.withLock { ($0.exceeded, $0.commit) }
        return own || (commit?.exceeded ?? false)
    }

    /// Budgets kept for the next evaluations (one per evaluation running at once).
    final class Pool: Sendable {
        private let firestore: Firestore
        private let free = Mutex<[RuleAccessBudget]>([])

        init(firestore: Firestore) { self.firestore = firestore }

        /// An empty budget of `limit` (drawing on `commit` too), to `give` back after the evaluation.
        func take(limit: Int, within commit: RuleAccessBudget?) -> RuleAccessBudget {
            guard let budget = free.withLock({ $0.popLast() }) else { return RuleAccessBudget(limit: limit, firestore: firestore, within: commit) }
            budget.state.withLock { state in
                state.limit = limit
                state.commit = commit
            }
            return budget
        }

        /// Returns `budget`, emptied, for reuse.
        func give(_ budget: RuleAccessBudget) {
            budget.state.withLock { state in
                state.paths.removeAll(keepingCapacity: true)
                state.exceeded = false
                state.commit = nil
            }
            free.withLock { $0.append(budget) }
        }
    }
}
