/// A parked document as its collection's index keeps it: version, update time, the parked actor's
/// executor and the packed fields (`EncodedFields`' layout) in one allocation.
///
/// A load test leaves hundreds of thousands of these behind (notifications, pledge markers). One
/// object a document keeps the index's dictionary slot to a pointer (a slot holding the fields and
/// metadata inline would take 80 B, and a dictionary keeps up to half its slots empty) and saves the
/// separate byte array's header. docs/performance.md, "Where the bytes and instructions go: the
/// data structures".
final class PackedDocument: ManagedBuffer<PackedDocument.Header, UInt8> {
    /// What a packed document keeps besides its fields.
    struct Header {
        let version: UInt64
        let updateTime: Timestamp
        let executor: ParkedExecutor
        /// Bytes of packed fields in the tail (the allocation may be larger).
        let count: Int
    }

    /// The executor of a parked actor, or the token its source gave to revive it.
    enum ParkedExecutor {
        case kept(any SerialExecutor)
        case token(UInt64)
    }

    /// A packed document of `fields` (as `EncodedFields.withPacked` wrote them).
    static func make(fields: UnsafeBufferPointer<UInt8>, version: UInt64, updateTime: Timestamp, executor: ParkedExecutor) -> PackedDocument {
        let header = Header(version: version, updateTime: updateTime, executor: executor, count: fields.count)
        let buffer = create(minimumCapacity: fields.count) { _ in header }
        buffer.withUnsafeMutablePointerToElements { elements in
            _ = UnsafeMutableBufferPointer(start: elements, count: fields.count).initialize(fromContentsOf: fields)
        }
        // `create` on this class allocates an instance of it.
        return unsafeDowncast(buffer, to: PackedDocument.self)
    }

    /// The executor of the parked actor, or its token.
    var executor: ParkedExecutor { header.executor }

    /// The snapshot of document `id` in `collection`, its fields decoded.
    func snapshot(collection: String, id: String) -> DocumentSnapshot {
        withUnsafeMutablePointers { header, elements in
            let fields = EncodedFields.decode(UnsafeBufferPointer(start: elements, count: header.pointee.count))
            return DocumentSnapshot(path: DocumentPath(collection, id), fields: fields,
                                    version: header.pointee.version, updateTime: header.pointee.updateTime)
        }
    }

    // No deinit: `header` is a stored property (released with the object); the elements are bytes.
}
