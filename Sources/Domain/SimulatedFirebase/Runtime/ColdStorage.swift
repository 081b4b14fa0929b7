/// Where the backend keeps documents nobody is using: bytes appended once and read back by the
/// handle `append` gave, outside the process's memory (the simulator's is `SpillFile`, an
/// unlinked temporary file). Without one (the default), parked documents stay packed in memory.
///
/// A load test leaves a parked, packed document behind for every notification and pledge marker:
/// ~270 B of heap a bid, growing with every arrival. Spilled, a document keeps 16 bytes of index
/// (docs/performance.md, "Where the bytes and instructions go: the data structures").
public protocol ColdStorage: Sendable {
    /// Appends `bytes` and returns the offset to read them back from, or nil if they could not be
    /// stored (the caller keeps them in memory instead).
    func append(_ bytes: UnsafeRawBufferPointer) -> UInt64?

    /// The `count` bytes appended at `offset`.
    func read(at offset: UInt64, count: Int) -> [UInt8]
}
