/// A document's fields packed into one byte buffer: how a collection's index keeps a document
/// whose actor is parked (`CollectionStore.parkIdleActors`).
///
/// A load test writes two documents a bid that nobody reads again (the OUTBID notification and
/// the pledge marker). As `Fields` each costs an entry array per map (40 B an entry) plus a heap
/// string per long value, ~500 B a bid in all; packed, the same fields are one allocation of their
/// bytes. Decoding gives back fields equal in every respect (same keys in the same order, doubles
/// bit for bit, strings byte for byte), so no read, rule or trace can tell a document was packed.
/// docs/performance.md, "Where the bytes and instructions go: the data structures".
///
/// Layout: a map is a count then (key, value) pairs in key order; a value is a tag byte and its
/// payload. Counts, lengths and integers are LEB128 varints (integers zigzagged); doubles and
/// timestamps are 8 bytes little-endian.
package struct EncodedFields: Sendable {
    private let bytes: [UInt8]

    private enum Tag: UInt8 {
        case null = 0, `false`, `true`, int, double, string, timestamp, array, map
    }

    /// Packs `fields`.
    package init(_ fields: Fields) {
        self.init(fields, limit: .max)!
    }

    /// Packs `fields` unless they take more than `limit` bytes (then nil, having stopped at the
    /// first value that went past it): a large document (an honor's growing `bids`) is one a load test keeps
    /// using, and packing it on every parking would cost its size on every bid.
    package init?(_ fields: Fields, limit: Int) {
        // An exact-size copy (the writer's buffer is larger).
        guard let bytes = Self.withPacked(fields, limit: limit, { [UInt8]($0) }) else { return nil }
        self.bytes = bytes
    }

    /// Bytes the packed fields take (tests and measurements).
    package var byteCount: Int { bytes.count }

    /// The fields as they were packed.
    package func decoded() -> Fields {
        bytes.withUnsafeBufferPointer { Self.decode($0) }
    }

    /// Calls `body` with `fields` packed, or returns nil if they take more than `limit` bytes (the
    /// encoder stops at the first value past it). The buffer is only valid inside `body`.
    static func withPacked<Result>(_ fields: Fields, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        var writer = Writer(limit: limit)
        writer.bytes.reserveCapacity(Swift.min(limit, 256))
        writer.map(fields)
        guard writer.bytes.count <= limit else { return nil }
        return writer.bytes.withUnsafeBufferPointer(body)
    }

    /// The fields packed in `buffer` (as `withPacked` wrote them, every byte used).
    static func decode(_ buffer: UnsafeBufferPointer<UInt8>) -> Fields {
        var reader = Reader(buffer: buffer)
        let fields = reader.map()
        precondition(reader.position == buffer.count, "EncodedFields: trailing bytes")
        return fields
    }

    /// Appends the layout's parts (varints, fixed 8-byte words, strings, maps) to `bytes`; also
    /// writes `SpilledDocument`'s records.
    struct Writer {
        let limit: Int
        var bytes: [UInt8] = []

        init(limit: Int) { self.limit = limit }

        mutating func varint(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        mutating func fixed(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func string(_ string: String) {
            var string = string
            string.withUTF8 { utf8 in
                varint(UInt64(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }

        mutating func map(_ fields: Fields) {
            varint(UInt64(fields.count))
            for (key, value) in fields {
                guard bytes.count <= limit else { return }
                string(key)
                self.value(value)
            }
        }

        mutating func value(_ value: Value) {
            switch value {
            case .null: bytes.append(Tag.null.rawValue)
            case .bool(let flag): bytes.append(flag ? Tag.true.rawValue : Tag.false.rawValue)
            case .int(let number):
                bytes.append(Tag.int.rawValue)
                varint(UInt64(bitPattern: (number << 1) ^ (number >> 63)))
            case .double(let number):
                bytes.append(Tag.double.rawValue)
                fixed(number.bitPattern)
            case .string(let text):
                bytes.append(Tag.string.rawValue)
                string(text)
            case .timestamp(let time):
                bytes.append(Tag.timestamp.rawValue)
                fixed(UInt64(bitPattern: time.unixNanoseconds))
            case .array(let elements):
                bytes.append(Tag.array.rawValue)
                varint(UInt64(elements.count))
                for element in elements {
                    guard bytes.count <= limit else { return }
                    self.value(element)
                }
            case .map(let fields):
                bytes.append(Tag.map.rawValue)
                map(fields)
            }
        }
    }

    /// Reads what `Writer` wrote, checking every length against the buffer.
    struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var position = 0

        init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

        mutating func byte() -> UInt8 {
            precondition(position < buffer.count, "EncodedFields: truncated")
            defer { position += 1 }
            return buffer[position]
        }

        mutating func varint() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = byte()
                value |= UInt64(next & 0x7F) << shift
                if next < 0x80 { return value }
                shift += 7
                precondition(shift < 64, "EncodedFields: varint too long")
            }
        }

        mutating func count() -> Int {
            let value = varint()
            precondition(value <= UInt64(buffer.count - position), "EncodedFields: count beyond the buffer")
            return Int(value)
        }

        mutating func fixed() -> UInt64 {
            precondition(buffer.count - position >= 8, "EncodedFields: truncated")
            defer { position += 8 }
            return UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress.unsafelyUnwrapped + position).loadUnaligned(as: UInt64.self))
        }

        mutating func string() -> String {
            let length = count()
            defer { position += length }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[position..<position + length]), as: UTF8.self)
        }

        mutating func map() -> Fields {
            let count = count()
            var entries: [Fields.Entry] = []
            entries.reserveCapacity(count)
            for _ in 0..<count {
                let key = string()
                entries.append(Fields.Entry(key: key, value: value()))
            }
            return Fields(sorted: entries)
        }

        mutating func value() -> Value {
            guard let tag = Tag(rawValue: byte()) else { preconditionFailure("EncodedFields: unknown tag") }
            switch tag {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .int:
                let zigzag = varint()
                return .int(Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
            case .double: return .double(Double(bitPattern: fixed()))
            case .string: return .string(string())
            case .timestamp: return .timestamp(Timestamp(unixNanoseconds: Int64(bitPattern: fixed())))
            case .array:
                let count = count()
                var elements = ValueArray()
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(value()) }
                return .array(elements)
            case .map: return .map(map())
            }
        }
    }
}
