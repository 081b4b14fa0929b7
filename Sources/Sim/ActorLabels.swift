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

    /// Name 0 (nonisolated code), kept apart so a run that creates no actor allocates nothing.
    private var first: String?
    /// Names 1, 2, … as UTF-8.
    private var bytes: [UInt8] = []
    /// `ends[i]` is where name `i + 1` ends in `bytes` (and name `i + 2` begins).
    private var ends: [UInt32] = []

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
        let start = ordinal == 1 ? 0 : Int(ends[ordinal - 2])
        return String(decoding: bytes[start..<Int(ends[ordinal - 1])], as: UTF8.self)
    }

    /// Adds the name of the next ordinal.
    mutating func append(_ label: String) {
        guard first != nil else {
            first = label
            return
        }
        bytes.append(contentsOf: label.utf8)
        precondition(bytes.count <= Int(UInt32.max), "actor names exceed 4 GiB")
        ends.append(UInt32(bytes.count))
    }
}
