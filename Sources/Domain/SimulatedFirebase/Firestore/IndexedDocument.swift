/// An existing document as its collection's index keeps it: decoded while its actor lives,
/// packed into bytes while its actor is parked (`CollectionStore`). One pointer either way, so a
/// dictionary slot of the index costs its key and 8 bytes (docs/performance.md, "Where the bytes
/// and instructions go: the data structures").
///
/// A document is packed when its actor is first parked and decoded again when it is next used; from
/// then on it stays decoded (`packable` false). The documents a load test leaves behind by the
/// hundred thousand (notifications, markers) are written once and never used again; the few it
/// keeps using (users, honors) would otherwise be packed and unpacked on every use.
enum IndexedDocument {
    /// The last committed snapshot, as the document actor holds it.
    case decoded(Decoded)
    /// The same snapshot, its fields packed and its path left to the collection to rebuild, with
    /// the executor of its parked actor.
    case packed(PackedDocument)

    /// A decoded entry: the snapshot, and whether it may be packed (until it has been unpacked once).
    final class Decoded: Sendable {
        let snapshot: DocumentSnapshot
        let packable: Bool
        init(_ snapshot: DocumentSnapshot, packable: Bool) {
            self.snapshot = snapshot
            self.packable = packable
        }
    }

    /// Documents larger than this stay decoded when parked (see `EncodedFields.init(_:limit:)`).
    static let packingLimit = 1_024

    /// `snapshot`, decoded.
    static func decoded(_ snapshot: DocumentSnapshot, packable: Bool) -> IndexedDocument {
        .decoded(Decoded(snapshot, packable: packable))
    }

    /// Whether the fields are packed.
    var isPacked: Bool { if case .packed = self { return true }; return false }

    /// Whether a decoded entry may still be packed (false for a packed one).
    var isPackable: Bool { if case .decoded(let entry) = self { return entry.packable }; return false }

    /// The snapshot of document `id` in `collection` (unpacked if packed).
    func snapshot(collection: String, id: String) -> DocumentSnapshot {
        switch self {
        case .decoded(let entry): return entry.snapshot
        case .packed(let packed): return packed.snapshot(collection: collection, id: id)
        }
    }
}
