/// How the scheduler chooses the next job among the ready ones; every choice is a pure function
/// of the seed (and, for `.replay`, of a recorded decisions log).
public enum SchedulingStrategy: Sendable, Hashable, CustomStringConvertible {
    /// First in, first out: the order jobs became ready. Time-equal timers fire in insertion order.
    case fifo
    /// Uniformly random among the ready jobs, from the seed's `scheduler` stream.
    case random
    /// Probabilistic Concurrency Testing (Burckhardt et al., ASPLOS 2010): each task gets a random
    /// priority, the highest-priority ready task runs, and at `depth − 1` random steps within
    /// `horizon` the running task drops below all others. Finds any bug of depth `d` with
    /// probability ≥ 1/(n·k^(d−1)) for n tasks and k steps.
    case pct(depth: Int, horizon: Int)
    /// Replays a decisions log: at the i-th step with more than one ready job, take choice
    /// `decisions[i]` (clamped) in default-first order, where 0 continues the task that just ran
    /// if its next job is the newest ready one and otherwise takes the oldest; once the log runs
    /// out, always 0. Few non-zero entries mean few preemptions.
    case replay(decisions: [UInt32])

    /// The default step horizon over which PCT places its priority change points.
    public static let pctDefaultHorizon = 2_000

    public var description: String {
        switch self {
        case .fifo: "fifo"
        case .random: "random"
        case .pct(let depth, let horizon):
            horizon == Self.pctDefaultHorizon ? "pct:\(depth)" : "pct:\(depth):\(horizon)"
        case .replay(let decisions): "replay(\(decisions.count) decisions)"
        }
    }

    /// Parses `fifo`, `random`, `pct:D` or `pct:D:K`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "fifo" where parts.count == 1: self = .fifo
        case "random" where parts.count == 1: self = .random
        case "pct" where parts.count == 2 || parts.count == 3:
            guard let depth = Int(parts[1]), depth >= 1, depth <= 64 else { return nil }
            var horizon = Self.pctDefaultHorizon
            if parts.count == 3 {
                guard let parsed = Int(parts[2]), parsed >= 1 else { return nil }
                horizon = parsed
            }
            self = .pct(depth: depth, horizon: horizon)
        default: return nil
        }
    }
}
