/// The first failed Always or Eventually check of a run, with where it happened.
public struct InvariantViolation: Sendable, Hashable, Codable, Error {
    /// The violated check's name.
    public let check: String
    /// Always or Eventually.
    public let kind: CheckDeclaration.Kind
    /// What the checker saw, with the values involved.
    public let message: String
    /// Kernel step at which the checker saw it (replay reaches the same step).
    public let step: UInt64
    /// Virtual time of the violation.
    public let virtualNanoseconds: UInt64
}
