/// What a device's snapshot listener does that the admin feed checkers read does not
/// (MODEL_RULES §18–19; docs/domain.md, "Listeners"): its connection drops now and then
/// (`listenerDisconnectProbability` per delivered snapshot, for `listenerDisconnectMin`–`Max`),
/// the changes of several writes reach it as one snapshot (a document changed twice shows only
/// its latest state), and a change the rules deny ends it with PERMISSION_DENIED.
struct ListenerConnection: Sendable {
    let ledger: FaultLedger
    let disconnectProbability: Double
    let disconnectMin: Duration
    let disconnectMax: Duration
    /// Whether the caller may read the document of a change (`list` rules, `get` for one document).
    let authorize: @Sendable (DocumentChange) -> Bool
    /// The one document listened to (nil: the whole collection).
    let document: DocumentPath?

    init(faults: BackendFaults, ledger: FaultLedger, document: DocumentPath? = nil, authorize: @escaping @Sendable (DocumentChange) -> Bool) {
        self.ledger = ledger
        self.document = document
        disconnectProbability = faults.listenerDisconnectProbability
        disconnectMin = faults.listenerDisconnectMin
        disconnectMax = faults.listenerDisconnectMax
        self.authorize = authorize
    }

    /// `changes` as one snapshot shows them: per document, the first change's before and the last
    /// change's after, at the last change's position; a document added and removed in between is
    /// not in it.
    static func coalesce(_ changes: [DocumentChange]) -> [DocumentChange] {
        guard changes.count > 1 else { return changes }
        // Most snapshots change each document once: nothing to merge, nothing to allocate.
        if changes.count <= 16 {
            var repeated = false
            for index in changes.indices.dropFirst() where !repeated {
                repeated = changes[..<index].contains { $0.path == changes[index].path }
            }
            if !repeated { return changes }
        }
        var merged: [DocumentChange?] = []
        var position: [DocumentPath: Int] = [:]
        for change in changes {
            var before = change.before
            if let earlier = position[change.path] {
                before = merged[earlier]!.before
                merged[earlier] = nil
            }
            position[change.path] = merged.count
            merged.append(before.exists || change.after.exists ? DocumentChange(before: before, after: change.after) : nil)
        }
        return merged.compactMap { $0 }
    }
}
