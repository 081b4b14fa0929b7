/// Thrown by the scenario's root task once a violation ended the run early.
public struct ScenarioStopped: Error, Sendable, CustomStringConvertible {
    /// The violation that stopped the run.
    public let violation: InvariantViolation
    /// "stopped: <check> at step <n>".
    public var description: String { "stopped: \(violation.check) at step \(violation.step)" }
}
