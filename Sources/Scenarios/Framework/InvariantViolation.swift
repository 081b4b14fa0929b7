/// The first failed Always or Eventually check of a run, with where it happened.
public struct InvariantViolation: Sendable, Hashable, Codable, Error {
    public let check: String
    public let kind: CheckDeclaration.Kind
    public let message: String
    /// Kernel step at which the checker saw it (replay reaches the same step).
    public let step: UInt64
    public let virtualNanoseconds: UInt64
}
