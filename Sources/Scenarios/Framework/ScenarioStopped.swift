/// Thrown by the scenario's root task once a violation ended the run early.
public struct ScenarioStopped: Error, Sendable, CustomStringConvertible {
    public let violation: InvariantViolation
    public var description: String { "stopped: \(violation.check) at step \(violation.step)" }
}
