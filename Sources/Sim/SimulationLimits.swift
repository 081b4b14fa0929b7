/// Named bounds on one run; hitting one ends the run with its own outcome, never a hang.
public struct SimulationLimits: Sendable, Hashable {
    /// Scheduler steps (jobs run) before the run ends as `.stepLimit`.
    public var maxSteps: UInt64
    /// Virtual nanoseconds before the run ends as `.timeLimit`.
    public var maxVirtualNanoseconds: UInt64
    /// Jobs allowed to run after the root task finished, to let in-flight work settle.
    public var maxStepsAfterRoot: UInt64

    /// Limits generous enough for any scenario at its documented sizes.
    public init(
        maxSteps: UInt64 = 50_000_000,
        maxVirtualNanoseconds: UInt64 = 30 * 24 * 3_600 * 1_000_000_000,
        maxStepsAfterRoot: UInt64 = 1_000_000
    ) {
        self.maxSteps = maxSteps
        self.maxVirtualNanoseconds = maxVirtualNanoseconds
        self.maxStepsAfterRoot = maxStepsAfterRoot
    }
}
