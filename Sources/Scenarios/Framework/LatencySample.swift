/// One completed operation: its latency from the intended start (open model), and where it ended.
public struct LatencySample: Sendable, Hashable, Codable {
    public let operation: String
    public let user: String
    /// When the operation was meant to start (its arrival), virtual nanoseconds.
    public let intendedStartNanoseconds: UInt64
    public let endNanoseconds: UInt64
    /// Kernel step at completion.
    public let step: UInt64
    public var latencyNanoseconds: UInt64 { endNanoseconds - intendedStartNanoseconds }
}
