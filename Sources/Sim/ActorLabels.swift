/// The names of a simulation's actors by ordinal (0 is nonisolated code), kept as runs of UTF-8
/// bytes with each name's directory (the text up to its last `/`) stored once.
///
/// A load test creates an actor per document it touches, hundreds of thousands of them, and each
/// name as its own `String` cost a heap object (~80 B for `doc/notifications/<id>`) and an array
/// slot. Here a name costs a number for its directory (shared by every document of a collection),
/// the bytes after it and eight bytes of position. The bytes go into fixed-size chunks, so
/// growing never copies them or doubles a buffer (one run of bytes did both: 38 MB at the peak of
/// a 10-minute load test for 25 MB of names). Names are rebuilt on demand (a trace file, a failure
/// message), byte for byte as given. docs/performance.md, "Stop 26" and "Stop 28".
public struct ActorLabels: RandomAccessCollection, Sendable, Equatable {
    /// An actor ordinal.
    public typealias Index = Int

    /// Bytes a chunk is given (a longer name gets a chunk of its own size).
    static let chunkSize = 64 * 1024

    /// Name 0 (nonisolated code), kept apart so a run that creates no actor allocates nothing.
    private var first: String?
    /// Names 1, 2, … each as a varint (0: no directory; d + 1: `directories[d]`) and the UTF-8
    /// bytes after the directory, in chunks.
    private var chunks: [[UInt8]] = []
    /// `positions[i]` is the chunk of name `i + 1` (high 32 bits) and where it ends in it (low 32
    /// bits); it begins where the previous name in the same chunk ends, or at 0.
    private var positions: [UInt64] = []
    /// Distinct directories (including their final `/`), in the order first seen.
    private var directories: [String] = []
    private var directoryNumbers: [String: UInt32] = [:]

    /// The names `labels`, in ordinal order.
    public init(_ labels: some Sequence<String> = []) {
        for label in labels { append(label) }
    }

    /// Only name 0, `first`.
    init(first: String) { self.first = first }

    /// The first ordinal.
    public var startIndex: Int { 0 }
    /// One past the last ordinal.
    public var endIndex: Int { first == nil ? 0 : positions.count + 1 }

    /// The name of actor `ordinal`.
    public subscript(ordinal: Int) -> String {
        precondition(ordinal >= 0 && ordinal < endIndex, "no actor \(ordinal) among \(endIndex)")
        if ordinal == 0 { return first! }
        let position = positions[ordinal - 1]
        let chunk = Int(position >> 32), end = Int(position & 0xFFFF_FFFF)
        var start = 0
        if ordinal >= 2, positions[ordinal - 2] >> 32 == position >> 32 {
            start = Int(positions[ordinal - 2] & 0xFFFF_FFFF)
        }
        return chunks[chunk].withUnsafeBufferPointer { buffer in
            var cursor = start
            var directory: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = buffer[cursor]
                cursor += 1
                directory |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            let rest = String(decoding: UnsafeBufferPointer(rebasing: buffer[cursor..<end]), as: UTF8.self)
            return directory == 0 ? rest : directories[Int(directory - 1)] + rest
        }
    }

    /// Adds the name of the next ordinal.
    mutating func append(_ label: String) {
        guard first != nil else {
            first = label
            return
        }
        let utf8 = label.utf8
        // The directory is worth a number when it is longer than the number (1–3 bytes).
        var directory: UInt64 = 0
        var restStart = utf8.startIndex
        if let slash = utf8.lastIndex(of: UInt8(ascii: "/")), utf8.distance(from: utf8.startIndex, to: slash) >= 3 {
            restStart = utf8.index(after: slash)
            let text = String(label[..<restStart])
            if let number = directoryNumbers[text] {
                directory = UInt64(number) + 1
            } else {
                precondition(directories.count < Int(UInt32.max), "more than 4 G actor directories")
                directoryNumbers[text] = UInt32(directories.count)
                directories.append(text)
                directory = UInt64(directories.count)
            }
        }
        var headerSize = 1
        while directory >> (7 * UInt64(headerSize)) != 0 { headerSize += 1 }
        let size = headerSize + utf8.distance(from: restStart, to: utf8.endIndex)
        if chunks.isEmpty || chunks[chunks.count - 1].count + size > Self.chunkSize {
            precondition(chunks.count < Int(UInt32.max), "actor names exceed 4 G chunks")
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Swift.max(Self.chunkSize, size))
            chunks.append(chunk)
        }
        let last = chunks.count - 1
        var rest = directory
        while rest >= 0x80 {
            chunks[last].append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        chunks[last].append(UInt8(rest))
        chunks[last].append(contentsOf: utf8[restStart...])
        precondition(chunks[last].count <= Int(UInt32.max), "an actor name exceeds 4 GiB")
        positions.append(UInt64(last) << 32 | UInt64(chunks[last].count))
    }
}
