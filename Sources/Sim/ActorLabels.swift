/// The names of a simulation's actors by ordinal (0 is nonisolated code), kept as runs of UTF-8
/// bytes with each name's directory (the text up to its last `/`) stored once.
///
/// A load test creates an actor per document it touches, hundreds of thousands of them, and each
/// name as its own `String` cost a heap object (~80 B for `doc/notifications/<id>`) and an array
/// slot. Here a name costs a number for its directory (shared by every document of a collection),
/// the bytes after it and four bytes of position. The bytes go into chunks of at most 64 KiB
/// (a longer name gets one of its own), so a large run never copies them or doubles a buffer
/// (one growing run of bytes would do both, its peak well above the names' size);
/// a small run allocates as one run of bytes would. Names are rebuilt on demand (a trace file, a
/// failure message), byte for byte as given. docs/performance.md, "Where the bytes and
/// instructions go: the data structures".
public struct ActorLabels: RandomAccessCollection, Sendable, Equatable {
    /// An actor ordinal.
    public typealias Index = Int

    /// Bytes a chunk is filled to (a longer name gets a chunk of its own).
    static let chunkSize = 64 * 1024

    /// Name 0 (nonisolated code), kept apart so a run that creates no actor allocates nothing.
    private var first: String?
    /// Names 1, 2, … each as a varint (0: no directory; d + 1: `directories[d]`) and the UTF-8
    /// bytes after the directory. The bytes of all names form one sequence, stored as the
    /// filled chunks and the one being filled; no name spans two chunks.
    private var chunks: [[UInt8]] = []
    /// Where each filled chunk starts in the sequence.
    private var chunkStarts: [UInt32] = []
    private var current: [UInt8] = []
    private var currentStart: UInt32 = 0
    /// `ends[i]` is where name `i + 1` ends in the sequence (and name `i + 2` begins).
    private var ends: [UInt32] = []
    /// Distinct directories (including their final `/`) as UTF-8, in the order first seen; found
    /// by bytes (a hash, then a byte comparison), not by `String` equality, which would merge
    /// canonically equal spellings (`é` and `e` + U+0301) and give a name back in the other one.
    private var directories: [[UInt8]] = []
    private var directoryByHash: [UInt64: UInt32] = [:]
    /// Directories whose hash an earlier directory has.
    private var directoryCollisions: [[UInt8]: UInt32] = [:]

    /// The names `labels`, in ordinal order.
    public init(_ labels: some Sequence<String> = []) {
        for label in labels { append(label) }
    }

    /// Only name 0, `first`.
    init(first: String) { self.first = first }

    /// The first ordinal.
    public var startIndex: Int { 0 }
    /// One past the last ordinal.
    public var endIndex: Int { first == nil ? 0 : ends.count + 1 }

    /// The name of actor `ordinal`.
    public subscript(ordinal: Int) -> String {
        precondition(ordinal >= 0 && ordinal < endIndex, "no actor \(ordinal) among \(endIndex)")
        if ordinal == 0 { return first! }
        let start = ordinal == 1 ? 0 : ends[ordinal - 2], end = ends[ordinal - 1]
        if start >= currentStart { return decode(current, from: Int(start - currentStart), to: Int(end - currentStart)) }
        // The last filled chunk starting at or before `start`.
        var low = 0, high = chunkStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if chunkStarts[middle] <= start { low = middle } else { high = middle - 1 }
        }
        return decode(chunks[low], from: Int(start - chunkStarts[low]), to: Int(end - chunkStarts[low]))
    }

    private func decode(_ chunk: [UInt8], from start: Int, to end: Int) -> String {
        chunk.withUnsafeBufferPointer { buffer in
            var cursor = start
            var directory: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = buffer[cursor]
                cursor += 1
                directory |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            let rest = UnsafeBufferPointer(rebasing: buffer[cursor..<end])
            guard directory > 0 else { return String(decoding: rest, as: UTF8.self) }
            // Decoded as one run of bytes: a name split inside a character comes back whole.
            return String(decoding: directories[Int(directory - 1)] + rest, as: UTF8.self)
        }
    }

    /// Adds the name of the next ordinal.
    mutating func append(_ label: String) {
        guard first != nil else {
            first = label
            return
        }
        var label = label
        label.withUTF8 { append(utf8: $0) }
    }

    private mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        // The directory is worth a number when it is longer than the number (1–3 bytes).
        var directory: UInt64 = 0
        var restStart = 0
        if let slash = utf8.lastIndex(of: UInt8(ascii: "/")), slash >= 3 {
            restStart = slash + 1
            directory = UInt64(directoryNumber(UnsafeBufferPointer(rebasing: utf8[..<restStart]))) + 1
        }
        var headerSize = 1
        while directory >> (7 * UInt64(headerSize)) != 0 { headerSize += 1 }
        let size = headerSize + utf8.count - restStart
        if !current.isEmpty, current.count + size > Self.chunkSize {
            chunks.append(current)
            chunkStarts.append(currentStart)
            currentStart += UInt32(current.count)
            current = []
        }
        // A first allocation of some room: a few short names then fit without growing it.
        if current.isEmpty { current.reserveCapacity(Swift.max(64, size)) }
        var rest = directory
        while rest >= 0x80 {
            current.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        current.append(UInt8(rest))
        current.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[restStart...]))
        precondition(UInt64(currentStart) + UInt64(current.count) <= UInt64(UInt32.max), "actor names exceed 4 GiB")
        ends.append(currentStart + UInt32(current.count))
    }

    /// The number of `bytes` among the directories, added if new.
    private mutating func directoryNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        if let number = directoryByHash[hash] {
            if directories[Int(number)].elementsEqual(bytes) { return number }
            if let number = directoryCollisions[Array(bytes)] { return number }
        }
        precondition(directories.count < Int(UInt32.max), "more than 4 G actor directories")
        let number = UInt32(directories.count)
        directories.append(Array(bytes))
        if directoryByHash[hash] == nil { directoryByHash[hash] = number } else { directoryCollisions[Array(bytes)] = number }
        return number
    }
}
