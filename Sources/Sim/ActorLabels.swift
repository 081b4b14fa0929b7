/// The names of a simulation's actors by ordinal (0 is nonisolated code), kept as one run of
/// UTF-8 bytes and the offset where each name ends.
///
/// A load test creates an actor per document it touches, hundreds of thousands of them, and each
/// name as its own `String` cost a heap object (~80 B for `doc/notifications/<id>`) and an array
/// slot; here it costs its bytes and four more. Names are rebuilt on demand (a trace file, a
/// failure message), byte for byte as given. docs/performance.md, "Stop 26".
public struct ActorLabels: RandomAccessCollection, Sendable, Equatable {
    /// An actor ordinal.
    public typealias Index = Int

    private var bytes: [UInt8] = []
    /// `ends[i]` is where name `i` ends in `bytes` (and name `i + 1` begins).
    private var ends: [UInt32] = []

    /// The names `labels`, in ordinal order.
    public init(_ labels: some Sequence<String> = []) {
        for label in labels { append(label) }
    }

    /// The first ordinal.
    public var startIndex: Int { 0 }
    /// One past the last ordinal.
    public var endIndex: Int { ends.count }

    /// The name of actor `ordinal`.
    public subscript(ordinal: Int) -> String {
        let start = ordinal == 0 ? 0 : Int(ends[ordinal - 1])
        return String(decoding: bytes[start..<Int(ends[ordinal])], as: UTF8.self)
    }

    /// Adds the name of the next ordinal.
    mutating func append(_ label: String) {
        bytes.append(contentsOf: label.utf8)
        precondition(bytes.count <= Int(UInt32.max), "actor names exceed 4 GiB")
        ends.append(UInt32(bytes.count))
    }
}
