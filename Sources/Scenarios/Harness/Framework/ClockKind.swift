/// Which clock a report's times are on (the raw values are report.json's strings).
public enum ClockKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The simulator's virtual clock: reproducible by seed.
    case virtual
    /// Load mode on the real runtime: wall-clock latency, not reproducible by seed.
    case wall

    /// The JSON string.
    public var description: String { rawValue }
}
