/// One documented integer parameter of a scenario: its default and the range of possible values.
public struct ScenarioParameter: Sendable, Hashable, Codable {
    public let name: String
    public let summary: String
    public let defaultValue: Int
    public let minimum: Int
    public let maximum: Int

    public init(_ name: String, _ summary: String, default defaultValue: Int, in range: ClosedRange<Int>) {
        precondition(range.contains(defaultValue), "default of \(name) outside its range")
        self.name = name
        self.summary = summary
        self.defaultValue = defaultValue
        self.minimum = range.lowerBound
        self.maximum = range.upperBound
    }
}
