/// How the scheduler chooses the next job among the ready ones — and, with a timing window, which
/// of several nearly simultaneous timers fires first. Every choice is a pure function of the seed
/// (and, for `.replay`, of a recorded decisions log).
///
/// Every choice point is logged as a *decision* in "default-first" order, where 0 is the
/// non-preemptive default: among ready jobs, continue the task that just ran if its next job is
/// the newest ready one, else take the oldest ready job; among timers, the earliest.
public enum SchedulingStrategy: Sendable, Hashable, CustomStringConvertible {
    /// Oldest ready job first (round-robin between tasks that keep yielding); earliest timer first.
    /// Not the non-preemptive baseline: a task that just ran does not keep the processor.
    case fifo
    /// Always the default choice (decision 0): the task that just ran keeps running while it has
    /// work; otherwise the oldest ready job; the earliest timer. The schedule a sequential
    /// programmer imagines, with no preemption at all (same as `.replay(decisions: [])`).
    case nonpreemptive
    /// Uniformly random among the ready jobs (and among timers within the window), from the seed's
    /// `sim.strategy` stream.
    case random
    /// Probabilistic Concurrency Testing (Burckhardt, Kothari, Musuvathi, Nagarakatte, ASPLOS 2010):
    /// each task gets a random priority above `depth`, the highest-priority ready task runs, and
    /// at `depth − 1` change points drawn uniformly among the run's first `horizon` choice points
    /// the task that runs there drops to priority `i` (1 … depth−1, in draw order). Finds any bug
    /// of depth `d` with probability ≥ 1/(n·k^(d−1)) for n tasks and k choice points.
    /// `horizon: nil` measures k from a first run of the same seed under `.nonpreemptive` (as
    /// shuttle does); the run's result names the measured horizon.
    case pct(depth: Int, horizon: Int?)
    /// The uniform random walk of SURW (ASPLOS 2025): a task is chosen with probability
    /// proportional to its remaining steps, estimated per seed from a first run under
    /// `.nonpreemptive` (see `URWState`).
    case urw
    /// A per-seed mix (shuttle's and Coyote's portfolio): seed mod 5 picks `random`, `pct:1`,
    /// `pct:2`, `pct:3` or `nonpreemptive`; the run's result names the strategy it used.
    case portfolio
    /// Replays a decisions log: at the i-th choice point take choice `decisions[i]` (clamped) in
    /// default-first order; once the log runs out, always 0. Few non-zero entries mean few
    /// preemptions.
    case replay(decisions: [UInt32])

    /// The horizon `pct:D` used before horizons were measured; kept for callers that name it.
    public static let pctDefaultHorizon = 2_000

    /// The strategies `portfolio` cycles through, indexed by seed mod their count.
    public static let portfolioMembers: [SchedulingStrategy] = [
        .random, .pct(depth: 1, horizon: nil), .pct(depth: 2, horizon: nil), .pct(depth: 3, horizon: nil), .nonpreemptive,
    ]

    /// The concrete strategy for `seed`: `portfolio` picks its member; others are themselves.
    public func resolved(forSeed seed: UInt64) -> SchedulingStrategy {
        guard case .portfolio = self else { return self }
        return Self.portfolioMembers[Int(seed % UInt64(Self.portfolioMembers.count))]
    }

    /// The strategy as `--strategy` takes it (`pct:3:417`); `replay(n decisions)` for a log.
    public var description: String {
        switch self {
        case .fifo: "fifo"
        case .nonpreemptive: "nonpreemptive"
        case .random: "random"
        case .pct(let depth, let horizon): horizon.map { "pct:\(depth):\($0)" } ?? "pct:\(depth)"
        case .portfolio: "portfolio"
        case .urw: "urw"
        case .replay(let decisions): "replay(\(decisions.count) decisions)"
        }
    }

    /// The largest PCT depth accepted.
    public static let pctMaxDepth = 64
    /// The largest explicit PCT horizon accepted (choice points).
    public static let pctMaxHorizon = 1_000_000_000

    /// Parses `fifo`, `nonpreemptive`, `random`, `urw`, `portfolio`, `pct:D` (measured horizon) or
    /// `pct:D:K`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        switch parts.first {
        case "fifo" where parts.count == 1: self = .fifo
        case "nonpreemptive" where parts.count == 1: self = .nonpreemptive
        case "random" where parts.count == 1: self = .random
        case "portfolio" where parts.count == 1: self = .portfolio
        case "urw" where parts.count == 1: self = .urw
        case "pct" where parts.count == 2 || parts.count == 3:
            guard let depth = Int(parts[1]), depth >= 1, depth <= Self.pctMaxDepth else { return nil }
            var horizon: Int?
            if parts.count == 3 {
                guard let parsed = Int(parts[2]), parsed >= 1, parsed <= Self.pctMaxHorizon else { return nil }
                horizon = parsed
            }
            self = .pct(depth: depth, horizon: horizon)
        default: return nil
        }
    }
}
