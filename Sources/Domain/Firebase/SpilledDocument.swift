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
        var bytes: [UInt8] = []
        var id = id
        id.withUTF8 { utf8 in
            bytes.reserveCapacity(utf8.count + fields.count + 24)
            varint(UInt64(utf8.count), into: &bytes)
            bytes.append(contentsOf: utf8)
        }
        varint(version, into: &bytes)
        withUnsafeBytes(of: UInt64(bitPattern: updateTime.unixNanoseconds).littleEndian) { bytes.append(contentsOf: $0) }
        varint(token, into: &bytes)
        bytes.append(contentsOf: fields)
        return bytes.count <= maximumRecord ? bytes : nil
    }

    /// The handle of a record of `count` bytes at `offset`, or nil past 1 TiB of cold storage
    /// (the document then stays packed in memory).
    static func handle(offset: UInt64, count: Int) -> UInt64? {
        precondition(count <= maximumRecord, "spilled record longer than a handle can say")
        return offset < 1 << 40 ? offset << 24 | UInt64(count) : nil
    }

    /// The record `handle` names, read from `storage`.
    init(handle: UInt64, in storage: any ColdStorage) {
        let bytes = storage.read(at: handle >> 24, count: Int(handle & 0xFF_FFFF))
        var position = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                precondition(position < bytes.count && shift < 64, "spilled record truncated")
                let byte = bytes[position]
                position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let idCount = Int(varint())
        precondition(idCount <= bytes.count - position, "spilled record truncated")
        id = String(decoding: bytes[position..<position + idCount], as: UTF8.self)
        position += idCount
        version = varint()
        precondition(bytes.count - position >= 8, "spilled record truncated")
        var time: UInt64 = 0
        for index in 0..<8 { time |= UInt64(bytes[position + index]) << (8 * UInt64(index)) }
        position += 8
        updateTime = Timestamp(unixNanoseconds: Int64(bitPattern: time))
        token = varint()
        fields = bytes.withUnsafeBufferPointer { EncodedFields.decode(UnsafeBufferPointer(rebasing: $0[position...])) }
    }

    /// Only the id of the record `handle` names (a lookup compares it; a scan sorts by it).
    static func id(handle: UInt64, in storage: any ColdStorage) -> String {
        let bytes = storage.read(at: handle >> 24, count: Int(handle & 0xFF_FFFF))
        var count = 0, shift = 0, position = 0
        while true {
            precondition(position < bytes.count && shift < 64, "spilled record truncated")
            let byte = bytes[position]
            position += 1
            count |= Int(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        precondition(count <= bytes.count - position, "spilled record truncated")
        return String(decoding: bytes[position..<position + count], as: UTF8.self)
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

    private static func varint(_ value: UInt64, into bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}
