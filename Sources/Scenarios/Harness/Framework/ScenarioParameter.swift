/// One documented integer parameter of a scenario: its default, the range of possible values, the
/// values worth drawing on purpose (thresholds of the design), and whether it scales the run's cost.
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
    /// Values a world swarm draws on purpose, with their neighbours (the design's thresholds:
    /// a 500-token FCM batch, a 60 s cooldown, an hour).
    public let notable: [Int]
    /// How the run's work grows with the value (a world swarm weighs costly draws down).
    public let cost: ParameterCost
    /// Whether a world swarm draws it (false for a control such as a test fixture's chosen seed).
    public let drawn: Bool

    /// A parameter; traps if `defaultValue` or a notable value is outside `range`.
    public init(
        _ name: String, _ summary: String, default defaultValue: Int, in range: ClosedRange<Int>, notable: [Int] = [],
        cost: ParameterCost = .none, drawn: Bool = true
    ) {
        precondition(range.contains(defaultValue), "default of \(name) outside its range")
        precondition(notable.allSatisfy(range.contains), "a notable value of \(name) outside its range")
        self.name = name
        self.summary = summary
        self.defaultValue = defaultValue
        self.minimum = range.lowerBound
        self.maximum = range.upperBound
        self.notable = notable
        self.cost = cost
        self.drawn = drawn
    }

    /// The range of accepted values.
    package var range: ClosedRange<Int> { minimum...maximum }
}

/// How a run's work grows with a parameter's value: a world swarm estimates a world's cost as the
/// product of `value / default` over its `.linear` parameters and draws costly worlds less often.
public enum ParameterCost: String, Sendable, Hashable, Codable {
    /// The value does not change how much the run does (a share, a probability, a switch).
    case none
    /// The run's work grows in proportion (users, actions each, hours, items).
    case linear
}
