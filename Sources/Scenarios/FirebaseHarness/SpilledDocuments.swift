import Harness
import Sim
import SimulatedFirebase

/// Parked documents spilled to a `SpillFile` (created only if a run spills one).
public struct SpilledDocuments: ColdStorage {
    let file = SpillFile()
    /// Cold storage in a new spill file.
    public init() {}
    /// Appends to the spill file.
    public func append(_ bytes: UnsafeRawBufferPointer) -> UInt64? { file.append(bytes) }
    /// Reads back from the spill file.
    public func read(at offset: UInt64, count: Int) -> [UInt8] { file.read(at: offset, count: count) }
}
