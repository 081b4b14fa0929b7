import SimulatedFirebase
import Synchronization

/// How many trigger events a server owes the run: every deployed trigger receives one event per
/// document change in its collection (the emulator sends one per document a commit changed, none
/// for a write that changed nothing: docs/real-firestore.md, "Triggers owed and received"). A
/// commit's answer says which writes changed their document (update time = commit time); it does
/// not say whether a deleted document existed, so deletes are counted apart, as an upper bound.
final class TriggerExpectation: Sendable {
    /// What the committed writes owe one trigger.
    struct Owed: Sendable, Equatable {
        /// Documents created or changed: one event each.
        var changes = 0
        /// Deletes: one event each whose document existed.
        var deletes = 0
    }

    private struct State {
        var triggers: [(name: String, pattern: PathPattern)] = []
        var owed: [String: Owed] = [:]
    }
    private let state = Mutex(State())

    /// `name` receives the events of documents in collections matching `collection`.
    func deploy(_ name: String, collection: String) {
        state.withLock { state in
            state.triggers.removeAll { $0.name == name }
            state.triggers.append((name, PathPattern(collection)))
        }
    }

    /// Counts what a committed request owes: per document, its last write decides.
    func record(_ paths: [DocumentPath], deletes: [Bool], commitTime: Timestamp?, updateTimes: [Timestamp?]) {
        guard let commitTime, !paths.isEmpty else { return }
        var last: [DocumentPath: Int] = [:]
        for (index, path) in paths.enumerated() { last[path] = index }
        state.withLock { state in
            guard !state.triggers.isEmpty else { return }
            for (index, path) in paths.enumerated() where last[path] == index {
                let isDelete = deletes[index]
                let changed = index < updateTimes.count && updateTimes[index] == commitTime
                guard isDelete || changed else { continue }
                for trigger in state.triggers where trigger.pattern.matches(path.collection) {
                    if isDelete { state.owed[trigger.name, default: Owed()].deletes += 1 } else { state.owed[trigger.name, default: Owed()].changes += 1 }
                }
            }
        }
    }

    /// What each deployed trigger is owed so far, by name.
    var owed: [String: Owed] { state.withLock { $0.owed } }
}
