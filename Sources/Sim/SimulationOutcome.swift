/// How a run ended. Every way but `.finished` is a failure with its own kind.
public enum SimulationOutcome: Sendable, Hashable, CustomStringConvertible {
    /// What escaped the simulation.
    public enum EscapeKind: String, Sendable, Hashable, Codable {
        case mainActor = "main-actor"
        case foreignThread = "foreign-thread"
        case realTimeSleep = "real-time-sleep"
        case systemRandomness = "system-randomness"
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
    /// `SimulationLimits.maxSteps` was reached; `running` names what kept running (the actors and
    /// code of the ready jobs, the named tasks alive): a livelock's participants.
    case stepLimit(running: [String])
    /// `SimulationLimits.maxVirtualNanoseconds` was passed; `running` names what was still waiting
    /// (the named tasks alive, the timers pending).
    case timeLimit(running: [String])
    /// Code escaped the simulation (see `SimulationConfiguration.strict`).
    case escaped([Escape])
    /// One job ran `SimulationConfiguration.stuckJobLimit` of wall time without returning to the
    /// scheduler (a loop without an `await`); the watchdog's line names the step, task and actor.
    case stuckJob(String)

    /// How a stuck job's description starts (what a sweep's failure message shows).
    public static let stuckJobPrefix = "stuck job: "

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
        case .stuckJob: "stuck-job"
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
                + " (or work escaped to a real thread that would resume a task later: DispatchQueue, a callback from another thread; strict mode declares it at once, strict: false waits for it)"
        case .stepLimit(let running):
            "step limit reached" + (running.isEmpty ? "" : "; still running: \(running.joined(separator: ", "))")
                + " (a loop that yields or hops between actors without waiting makes no progress: a livelock)"
        case .timeLimit(let running):
            "virtual time limit reached" + (running.isEmpty ? "" : "; still waiting: \(running.joined(separator: ", "))")
                + " (a loop that sleeps without end, or a timer that keeps rescheduling itself)"
        case .escaped(let escapes):
            "escaped the simulation: " + escapes.map { "\($0.kind.rawValue) at step \($0.step): \($0.detail)" }.joined(separator: "; ")
        case .stuckJob(let line): Self.stuckJobPrefix + line
        }
    }
}
