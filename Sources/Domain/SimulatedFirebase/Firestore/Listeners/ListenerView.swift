/// What one device listener shows (the SDK's local view; MODEL_RULES §19, docs/domain.md
/// "Listeners"): each document's state as the server last sent it, with the device's own writes
/// that the server has not answered yet applied over it (latency compensation). An acknowledged
/// write becomes the document's known state at its committed version, so the server's echo of
/// it is not shown twice; a refused one leaves the view, which goes back to the server's state.
struct ListenerView: Sendable {
    private struct PendingWrite: Sendable {
        let id: Int
        let path: DocumentPath
        let operation: WriteOperation
    }
    private var known: [DocumentPath: DocumentSnapshot] = [:]
    private var pending: [PendingWrite] = []
    private var nextWrite = 0
    /// The connection is down: what the listener shows is the device's copy.
    var isFromCache = false
    /// The metadata of the last snapshot raised (nil: none raised yet).
    var lastRaised: SnapshotMetadata?

    /// Where the data shown now comes from.
    var metadata: SnapshotMetadata { SnapshotMetadata(isFromCache: isFromCache, hasPendingWrites: !pending.isEmpty) }

    /// `path` as the device shows it: the server's last state, then each pending write in order
    /// (one the local copy cannot apply, an update of a document it does not hold, changes nothing).
    func shown(_ path: DocumentPath) -> DocumentSnapshot {
        let base = known[path] ?? DocumentSnapshot(path: path, fields: nil, version: 0, updateTime: Timestamp(unixNanoseconds: 0))
        guard pending.contains(where: { $0.path == path }) else { return base }
        var fields = base.fields
        for write in pending where write.path == path {
            do { fields = try write.operation.apply(to: fields, path: path, commitTime: base.updateTime) } catch {}
        }
        return DocumentSnapshot(path: path, fields: fields, version: base.version, updateTime: base.updateTime)
    }

    /// Records the device's write of `operation` to `path`; returns its id and the change it makes
    /// to what the device shows.
    mutating func write(_ path: DocumentPath, _ operation: WriteOperation) -> (id: Int, change: DocumentChange?) {
        let before = shown(path)
        let id = nextWrite
        nextWrite += 1
        pending.append(PendingWrite(id: id, path: path, operation: operation.pendingEstimate))
        return (id, Self.change(before, shown(path)))
    }

    /// The server committed write `id` as `committed`.
    mutating func acknowledge(_ id: Int, committed: DocumentSnapshot) -> DocumentChange? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        let path = pending[index].path
        let before = shown(path)
        pending.remove(at: index)
        if committed.version > known[path]?.version ?? 0 { known[path] = committed }
        return Self.change(before, shown(path))
    }

    /// The server refused write `id` (or its answer never came): the device stops showing it.
    mutating func rollBack(_ id: Int) -> DocumentChange? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        let path = pending[index].path
        let before = shown(path)
        pending.remove(at: index)
        return Self.change(before, shown(path))
    }

    /// The server's changes (coalesced and authorized) as the device shows them. A version the
    /// device already holds (an acknowledged write's) is skipped; a document with pending writes
    /// shows the server's state with them applied, and only if that differs from what it showed.
    mutating func receive(_ changes: [DocumentChange]) -> [DocumentChange] {
        var shownChanges: [DocumentChange] = []
        shownChanges.reserveCapacity(changes.count)
        for change in changes {
            let path = change.path
            let held = known[path]
            if let held, held.version >= change.after.version { continue }
            let before = shown(path)
            known[path] = change.after
            if pending.contains(where: { $0.path == path }) {
                if let visible = Self.change(before, shown(path)) { shownChanges.append(visible) }
            } else {
                shownChanges.append(held == nil ? change : DocumentChange(before: before, after: change.after))
            }
        }
        return shownChanges
    }

    /// The change from `before` to `after`, nil if the data shown is the same.
    private static func change(_ before: DocumentSnapshot, _ after: DocumentSnapshot) -> DocumentChange? {
        before.fields == after.fields ? nil : DocumentChange(before: before, after: after)
    }
}
