/// A parked document as `ColdStorage` keeps it: one record of its id, version, update time, the
/// token of its parked actor's executor and its packed fields (`EncodedFields`' layout).
///
/// Record: the id's length (LEB128) and UTF-8 bytes, the version (LEB128), the update time (8
/// bytes little-endian), the token (LEB128), then the packed fields to the end. The collection's
/// index keeps a handle (offset and length) by a hash of the id (`CollectionStore`).
struct SpilledDocument {
    let id: String
    let version: UInt64
    let updateTime: Timestamp
    let token: UInt64
    let fields: Fields

    /// Records of at most this many bytes are spilled (the length is 24 bits of the handle).
    static let maximumRecord = (1 << 24) - 1

    /// The record for document `id`, or nil if it would be longer than `maximumRecord`.
    static func record(id: String, version: UInt64, updateTime: Timestamp, token: UInt64, fields: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var writer = EncodedFields.Writer(limit: .max)
        writer.bytes.reserveCapacity(id.utf8.count + fields.count + 24)
        writer.string(id)
        writer.varint(version)
        writer.fixed(UInt64(bitPattern: updateTime.unixNanoseconds))
        writer.varint(token)
        writer.bytes.append(contentsOf: fields)
        return writer.bytes.count <= maximumRecord ? writer.bytes : nil
    }

    /// The handle of a record of `count` bytes at `offset`, or nil past 1 TiB of cold storage
    /// (the document then stays packed in memory).
    static func handle(offset: UInt64, count: Int) -> UInt64? {
        precondition(count <= maximumRecord, "spilled record longer than a handle can say")
        return offset < 1 << 40 ? offset << 24 | UInt64(count) : nil
    }

    /// The record `handle` names, read from `storage`.
    init(handle: UInt64, in storage: any ColdStorage) {
        let bytes = Self.bytes(handle, in: storage)
        (id, version, updateTime, token, fields) = bytes.withUnsafeBufferPointer { buffer in
            var reader = EncodedFields.Reader(buffer: buffer)
            let id = reader.string(), version = reader.varint()
            let updateTime = Timestamp(unixNanoseconds: Int64(bitPattern: reader.fixed()))
            let token = reader.varint()
            return (id, version, updateTime, token, EncodedFields.decode(UnsafeBufferPointer(rebasing: buffer[reader.position...])))
        }
    }

    /// Only the id of the record `handle` names (a scan sorts by it).
    static func id(handle: UInt64, in storage: any ColdStorage) -> String {
        bytes(handle, in: storage).withUnsafeBufferPointer { buffer in
            var reader = EncodedFields.Reader(buffer: buffer)
            return reader.string()
        }
    }

    private static func bytes(_ handle: UInt64, in storage: any ColdStorage) -> [UInt8] {
        storage.read(at: handle >> 24, count: Int(handle & 0xFF_FFFF))
    }

    /// The snapshot of this document in `collection`.
    func snapshot(collection: String) -> DocumentSnapshot {
        DocumentSnapshot(path: DocumentPath(collection, id), fields: fields, version: version, updateTime: updateTime)
    }

    /// FNV-1a, 64 bits, of `id`'s UTF-8: the same in every process (unlike `Hasher`).
    static func hash(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
