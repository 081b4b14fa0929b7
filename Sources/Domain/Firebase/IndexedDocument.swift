/// An existing document as its collection's index keeps it: decoded while its actor lives (or
/// since a point read), packed into bytes while its actor is parked (`CollectionStore`).
enum IndexedDocument: Sendable {
    /// The last committed snapshot, as the document actor holds it.
    case decoded(DocumentSnapshot)
    /// The same snapshot, its fields packed and its path left to the collection to rebuild, with
    /// the executor of its parked actor.
    case packed(EncodedFields, version: UInt64, updateTime: Timestamp, executor: any SerialExecutor)

    /// Documents larger than this stay decoded when parked (see `EncodedFields.init(_:limit:)`).
    static let packingLimit = 1_024

    /// A snapshot of an existing document packed with its parked actor's executor, or nil if it
    /// is larger than `packingLimit`.
    init?(packing snapshot: DocumentSnapshot, executor: any SerialExecutor) {
        guard let fields = snapshot.fields else { preconditionFailure("only existing documents are indexed: \(snapshot.path)") }
        guard let packed = EncodedFields(fields, limit: Self.packingLimit) else { return nil }
        self = .packed(packed, version: snapshot.version, updateTime: snapshot.updateTime, executor: executor)
    }

    /// Whether the fields are packed.
    var isPacked: Bool { if case .packed = self { return true }; return false }

    /// The snapshot of document `id` in `collection` (unpacked if packed).
    func snapshot(collection: String, id: String) -> DocumentSnapshot {
        switch self {
        case .decoded(let snapshot): return snapshot
        case .packed(let fields, let version, let updateTime, _):
            return DocumentSnapshot(path: DocumentPath(collection, id), fields: fields.decoded(), version: version, updateTime: updateTime)
        }
    }
}
