/// One committed change as a snapshot listener sees it.
public struct DocumentChange: Sendable, Hashable {
    public let before: DocumentSnapshot
    public let after: DocumentSnapshot

    public var kind: TriggerKind {
        before.exists ? (after.exists ? .update : .delete) : .create
    }
    public var path: DocumentPath { after.path }
}
