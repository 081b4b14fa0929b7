/// A program of the differential oracle: steps run in order against a fresh database.
public struct ConformanceProgram: Sendable, Hashable, CustomStringConvertible {
    /// The seed it was drawn from.
    public var seed: UInt64
    /// Its steps.
    public var steps: [ConformanceStep]

    /// A program of `steps`.
    public init(seed: UInt64, steps: [ConformanceStep]) {
        self.seed = seed
        self.steps = steps
    }

    /// One numbered step a line.
    public var description: String {
        steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}
