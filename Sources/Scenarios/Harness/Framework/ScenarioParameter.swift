/// One documented integer parameter of a scenario: its default and the range of possible values.
public struct ScenarioParameter: Sendable, Hashable, Codable {
    /// The name `--param` takes.
    public let name: String
    /// What it controls, for `rehearse list`.
    public let summary: String
    /// The value when not given.
    public let defaultValue: Int
    /// The smallest value accepted.
    public let minimum: Int
    /// The largest value accepted.
    public let maximum: Int

    /// A parameter; traps if `defaultValue` is outside `range`.
    public init(_ name: String, _ summary: String, default defaultValue: Int, in range: ClosedRange<Int>) {
        precondition(range.contains(defaultValue), "default of \(name) outside its range")
        self.name = name
        self.summary = summary
        self.defaultValue = defaultValue
        self.minimum = range.lowerBound
        self.maximum = range.upperBound
    }
}
