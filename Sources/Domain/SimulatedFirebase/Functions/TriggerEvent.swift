/// Which kind of write a trigger event reports.
public enum TriggerKind: String, Sendable, Hashable, CaseIterable {
    case create, update, delete
}

/// One delivery of a Firestore trigger (onCreate/onUpdate/onDelete) with before/after snapshots.
public struct TriggerEvent: Sendable, Hashable {
    /// Derived from the document path and the committed version, so it is deterministic. A
    /// duplicate delivery shares it unless `BackendFaults.duplicatesShareEventId` is off.
    /// Built when read: few handlers read it, and building it at every commit cost more than
    /// the rest of the event.
    public var eventId: String { "\(path)@v\(after.version)" + (ownsDuplicateId ? "~dup" : "") }
    /// A duplicate delivery whose id is its own (`~dup` appended), not the original's.
    let ownsDuplicateId: Bool
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
    /// The function instance that runs this delivery: a new number after each cold start.
    /// Module-level (global) state lives per instance and is lost with it (MODEL_RULES §21).
    public internal(set) var instance = 0
    /// Held back by `trigger-late` (the platform's secret: handlers cannot tell).
    var isLate = false

    /// The event of the write from `before` to `after` (at `after.path`).
    init(kind: TriggerKind, before: DocumentSnapshot, after: DocumentSnapshot, isDuplicate: Bool, ownsDuplicateId: Bool, attempt: Int) {
        self.ownsDuplicateId = ownsDuplicateId
        self.kind = kind
        self.path = after.path
        self.before = before
        self.after = after
        self.commitTime = after.updateTime
        self.isDuplicate = isDuplicate
        self.attempt = attempt
    }

    /// The next attempt of this delivery.
    func retried() -> TriggerEvent {
        var next = TriggerEvent(kind: kind, before: before, after: after, isDuplicate: isDuplicate, ownsDuplicateId: ownsDuplicateId, attempt: attempt + 1)
        next.isLate = isLate
        return next
    }
}
