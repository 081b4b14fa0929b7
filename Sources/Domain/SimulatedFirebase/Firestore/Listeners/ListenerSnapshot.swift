/// One snapshot a device listener raises (`addSnapshotListener` with metadata): the changes to
/// the listened documents since the previous snapshot, and where the data came from. With
/// `includeMetadataChanges` a snapshot may change metadata only (`changes` empty).
public struct ListenerSnapshot: Sendable, Hashable {
    /// The documents changed, as the device now shows them (its pending writes applied).
    public let changes: [DocumentChange]
    /// Whether the data is from the device's copy and whether it holds unacknowledged writes.
    public let metadata: SnapshotMetadata

    /// A snapshot of `changes` with `metadata`.
    public init(changes: [DocumentChange], metadata: SnapshotMetadata) {
        self.changes = changes
        self.metadata = metadata
    }
}
