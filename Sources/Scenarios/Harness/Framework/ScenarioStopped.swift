/// Thrown by the scenario's root task once a violation ended the run early.
package struct ScenarioStopped: Error, Sendable, CustomStringConvertible {
    /// The violation that stopped the run.
    package let violation: InvariantViolation
    /// "stopped: <check> at step <n>".
    package var description: String { "stopped: \(violation.check) at step \(violation.step)" }
}
