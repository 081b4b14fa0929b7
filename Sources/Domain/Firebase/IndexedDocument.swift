/// An existing document as its collection's index keeps it: decoded while its actor lives,
/// packed into bytes while its actor is parked (`CollectionStore`).
///
/// A document is packed when its actor is first parked and decoded again when it is next used; from
/// then on it stays decoded (`packable` false). The documents a load test leaves behind by the
/// hundred thousand (notifications, markers) are written once and never used again; the few it
/// keeps using (users, honors) would otherwise be packed and unpacked on every use.
enum IndexedDocument: Sendable {
    /// The last committed snapshot, as the document actor holds it; `packable` until it has been
    /// unpacked once.
    case decoded(DocumentSnapshot, packable: Bool)
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
        case .decoded(let snapshot, _): return snapshot
        case .packed(let fields, let version, let updateTime, _):
            return DocumentSnapshot(path: DocumentPath(collection, id), fields: fields.decoded(), version: version, updateTime: updateTime)
        }
    }
}
