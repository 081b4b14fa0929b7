/// One committed change as a snapshot listener sees it.
public struct DocumentChange: Sendable, Hashable {
    /// The document before the change (`exists == false` for an added one).
    public let before: DocumentSnapshot
    /// The document after the change (`exists == false` for a removed one).
    public let after: DocumentSnapshot

    /// Create, update or delete, from which snapshots exist.
    public var kind: TriggerKind {
        before.exists ? (after.exists ? .update : .delete) : .create
    }
    /// The changed document.
    public var path: DocumentPath { after.path }
}
