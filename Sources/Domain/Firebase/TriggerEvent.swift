/// Which kind of write a trigger event reports.
public enum TriggerKind: String, Sendable, Hashable, CaseIterable {
    case create, update, delete
}

/// One delivery of a Firestore trigger (onCreate/onUpdate/onDelete) with before/after snapshots.
public struct TriggerEvent: Sendable, Hashable {
    /// Derived from the document path and the committed version, so it is deterministic. A
    /// duplicate delivery shares it unless `BackendFaults.duplicatesShareEventId` is off.
    public let eventId: String
    /// Create, update or delete.
    public let kind: TriggerKind
    /// The document written.
    public let path: DocumentPath
    /// The document before the write (`exists == false` for a create).
    public let before: DocumentSnapshot
    /// The document after the write (`exists == false` for a delete).
    public let after: DocumentSnapshot
    /// When the write committed.
    public let commitTime: Timestamp
    /// True for the extra delivery of an at-least-once duplicate.
    public let isDuplicate: Bool
    /// 1 for the first delivery; higher for retries of a failed handler.
    public let attempt: Int
}
