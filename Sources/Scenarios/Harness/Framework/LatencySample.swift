/// One completed operation: its latency from the intended start (open model), and where it ended.
public struct LatencySample: Sendable, Hashable, Codable {
    /// The operation's name (what a threshold names, e.g. `placeBid`).
    public let operation: String
    /// The user who ran it.
    public let user: String
    /// When the operation was meant to start (its arrival), virtual nanoseconds.
    public let intendedStartNanoseconds: UInt64
    /// When it completed, virtual nanoseconds.
    public let endNanoseconds: UInt64
    /// Kernel step at completion.
    public let step: UInt64
    /// End minus intended start.
    package var latencyNanoseconds: UInt64 { endNanoseconds - intendedStartNanoseconds }

    /// A sample made outside a run (a user's own measurements, tests of the summaries).
    package init(operation: String, user: String, intendedStartNanoseconds: UInt64, endNanoseconds: UInt64, step: UInt64) {
        self.operation = operation
        self.user = user
        self.intendedStartNanoseconds = intendedStartNanoseconds
        self.endNanoseconds = endNanoseconds
        self.step = step
    }
}
