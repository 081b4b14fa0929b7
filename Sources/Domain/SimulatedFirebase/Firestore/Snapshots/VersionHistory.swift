import Synchronization

/// The document versions later commits replaced, kept for reads at a past instant (read-only
/// transactions, `readTime`) for as long as production answers them: one hour
/// (docs/domain.md, "Read-only transactions").
///
/// Nothing is kept until a database first needs it (`startKeeping`): a simulation that never
/// reads in the past pays one atomic load per commit. Once keeping, every install records the
/// version it replaced with the commit's sequence number and time; entries older than the
/// window are dropped as new ones arrive.
final class VersionHistory: Sendable {
    /// How long a replaced version stays readable.
    static let window = Duration.seconds(3_600)

    private struct Entry {
        /// The commit that replaced `before`.
        let sequence: UInt64
        let commitTime: Timestamp
        let before: DocumentSnapshot
    }

    private struct State {
        /// When keeping began (nil: not keeping).
        var since: Timestamp?
        /// Per document, its replaced versions, oldest first.
        var entries: [DocumentPath: [Entry]] = [:]
        /// Every entry's time and document in commit order, from `head` on: what the window drops first.
        var order: [(time: Timestamp, path: DocumentPath)] = []
        var head = 0
    }

    private let keeping = Atomic<Bool>(false)
    private let state = Mutex(State())

    /// Starts keeping replaced versions from `now` on (no-op if already keeping).
    func startKeeping(now: Timestamp) {
        guard !keeping.load(ordering: .acquiring) else { return }
        state.withLock { state in if state.since == nil { state.since = now } }
        keeping.store(true, ordering: .releasing)
    }

    /// When keeping began, nil if it has not.
    var keepingSince: Timestamp? { state.withLock { $0.since } }

    /// Records that the commit `sequence` at `commitTime` replaced `before` (no-op unless keeping).
    func record(before: DocumentSnapshot, sequence: UInt64, commitTime: Timestamp) {
        guard keeping.load(ordering: .acquiring) else { return }
        state.withLock { state in
            state.entries[before.path, default: []].append(Entry(sequence: sequence, commitTime: commitTime, before: before))
            state.order.append((commitTime, before.path))
            Self.prune(&state, now: commitTime)
        }
    }

    /// `current` (the document's latest version) as it stood at `point`; nil when that version is
    /// older than what was kept (the document changed after `point` but before keeping began).
    func version(of current: DocumentSnapshot, at point: ReadPoint) -> DocumentSnapshot? {
        let replaced = state.withLock { state -> DocumentSnapshot? in
            guard let entries = state.entries[current.path] else { return nil }
            switch point {
            case .sequence(let sequence, _): return entries.first { $0.sequence > sequence }?.before
            case .time(let time): return entries.first { $0.commitTime > time }?.before
            }
        }
        let answer = replaced ?? current
        if case .time(let time) = point, answer.version > 0, answer.updateTime > time { return nil }
        return answer
    }

    /// Drops the entries that left the window, oldest first.
    private static func prune(_ state: inout State, now: Timestamp) {
        let horizon = now - window
        while state.head < state.order.count, state.order[state.head].time <= horizon {
            let path = state.order[state.head].path
            state.head += 1
            state.entries[path]?.removeFirst()
            if state.entries[path]?.isEmpty == true { state.entries[path] = nil }
        }
        if state.head > 1_024, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }
}
