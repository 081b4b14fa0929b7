/// How a run ended. Every way but `.finished` is a failure with its own kind.
public enum SimulationOutcome: Sendable, Hashable, CustomStringConvertible {
    /// What escaped the simulation.
    public enum EscapeKind: String, Sendable, Hashable, Codable {
        case mainActor = "main-actor"
        case foreignThread = "foreign-thread"
        case realTimeSleep = "real-time-sleep"
    }

    /// One escape, with where it happened.
    public struct Escape: Sendable, Hashable, Codable {
        /// What escaped the simulation.
        public var kind: EscapeKind
        /// The call or job that escaped, as the kernel saw it.
        public var detail: String
        /// The step at which it was detected.
        public var step: UInt64
        /// Virtual time at detection.
        public var timeNanoseconds: UInt64
    }

    /// The root task returned.
    case finished
    /// The root task threw; the error's description.
    case rootThrew(String)
    /// Nothing was runnable and no timer was pending, yet the root had not finished.
    /// `blockedTasks` names the tasks started with `Simulation.spawn(name:)` that never finished.
    case deadlock(blockedTasks: [String])
    /// `SimulationLimits.maxSteps` was reached.
    case stepLimit
    /// `SimulationLimits.maxVirtualNanoseconds` was passed.
    case timeLimit
    /// Code escaped the simulation (see `SimulationConfiguration.strict`).
    case escaped([Escape])

    /// True only for `.finished`.
    public var isSuccess: Bool { if case .finished = self { true } else { false } }

    /// A stable one-word name for reports and exit-code mapping.
    public var kind: String {
        switch self {
        case .finished: "finished"
        case .rootThrew: "root-threw"
        case .deadlock: "deadlock"
        case .stepLimit: "step-limit"
        case .timeLimit: "time-limit"
        case .escaped: "escaped"
        }
    }

    /// One line: the outcome and its details (blocked tasks, the escape).
    public var description: String {
        switch self {
        case .finished: "finished"
        case .rootThrew(let error): "root task threw: \(error)"
        case .deadlock(let blocked):
            (blocked.isEmpty
                ? "deadlock: nothing runnable, no timer pending, root task not finished"
                : "deadlock: nothing runnable, no timer pending; blocked tasks: \(blocked.joined(separator: ", "))")
                + " (in strict mode a task that a real thread would resume later counts as deadlocked; strict: false waits for it)"
        case .stepLimit: "step limit reached"
        case .timeLimit: "virtual time limit reached"
        case .escaped(let escapes):
            "escaped the simulation: " + escapes.map { "\($0.kind.rawValue) at step \($0.step): \($0.detail)" }.joined(separator: "; ")
        }
    }
}
