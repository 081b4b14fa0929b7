import Synchronization

/// Keeps every commit atomic to readers, as production's strongly consistent reads are
/// (docs/domain.md, "Reads see whole commits"): from the moment a commit is decided until its last
/// document is installed, a plain read of a document it writes, or a query of a collection it
/// writes into, waits for it. Installing takes no virtual time, so the wait changes only the order
/// of hops, never a latency. Without it a read could see a transaction's first document and miss
/// its second, which no Firestore client can see.
final class CommitVisibility: Sendable {
    /// What a read covers.
    enum Target {
        /// One document.
        case document(DocumentPath)
        /// Every document of one collection.
        case collection(String)
        /// Every collection whose last segment is this id (a collection-group query).
        case collectionGroup(String)

        /// Whether a commit of `documents` writes anything this read covers.
        func overlaps(_ documents: [Transaction.Document]) -> Bool {
            switch self {
            case .document(let path): documents.contains { !$0.writes.isEmpty && $0.path == path }
            case .collection(let collection): documents.contains { !$0.writes.isEmpty && $0.path.collection == collection }
            case .collectionGroup(let id):
                documents.contains { !$0.writes.isEmpty && ($0.path.collection == id || $0.path.collection.hasSuffix("/" + id)) }
            }
        }
    }

    private struct State {
        /// Commits decided and still installing, with their documents (those with writes count).
        var installing: [(transaction: UInt64, documents: [Transaction.Document])] = []
        var waiters: [CheckedContinuation<Void, Never>] = []

        func blocks(_ target: Target) -> Bool { installing.contains { target.overlaps($0.documents) } }
    }

    private let state = Mutex(State())

    /// `transaction` is decided and starts installing `documents` (those with writes).
    func begin(_ transaction: UInt64, installing documents: [Transaction.Document]) {
        state.withLock { $0.installing.append((transaction, documents)) }
    }

    /// `transaction` installed its last document: readers waiting on it look again.
    func end(_ transaction: UInt64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard let index = state.installing.firstIndex(where: { $0.transaction == transaction }) else { return [] }
            state.installing.remove(at: index)
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether a read of `target` must wait now.
    func isBlocked(_ target: Target) -> Bool { state.withLock { $0.blocks(target) } }

    /// Returns once no commit installing when called (or since) writes what `target` covers.
    nonisolated(nonsending) func waitUntilVisible(_ target: Target) async {
        while isBlocked(target) {
            await withCheckedContinuation { continuation in
                let parked = state.withLock { state in
                    guard state.blocks(target) else { return false }
                    state.waiters.append(continuation)
                    return true
                }
                if !parked { continuation.resume() }
            }
        }
    }

    /// `read`'s answer, taken with no commit able to start installing while it runs, or nil (not
    /// run) while an installing commit writes what `target` covers: wait (`waitUntilVisible`) and
    /// ask again. Its answer holds each commit whole or not at all.
    func readIfVisible<Result>(_ target: Target, _ read: () -> Result) -> Result? {
        state.withLock { state in state.blocks(target) ? nil : read() }
    }
}
