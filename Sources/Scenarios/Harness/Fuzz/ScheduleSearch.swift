import Sim

/// What became of a failure's schedule after shrinking: a bounded exploration of every schedule
/// with fewer preemptions (`BoundedExplorer`, rounds of 0, 1, … preemptions) either proves the
/// reported schedule has the fewest any failing schedule of that seed has, or runs out of budget,
/// and the report says which.
public enum ScheduleSearch: Sendable, Hashable, Codable, CustomStringConvertible {
    /// No schedule of this seed with fewer preemptions fails (`explored` of them ran, every one of
    /// at most `completeBound` preemptions). The reported schedule is the first failing one the
    /// search found, or the shrinker's when none with fewer failed.
    case minimal(explored: Int, completeBound: Int)
    /// The budget ran out after `explored` schedules with every one of at most `completeBound`
    /// preemptions judged (-1: not even none): the shrinker's schedule is reported, not proven
    /// minimal.
    case budgetSpent(explored: Int, completeBound: Int)
    /// Not searched: a livelock (its schedule is not the finding), or the program is not
    /// deterministic under a given schedule.
    case notSearched(String)

    private enum CodingKeys: String, CodingKey { case kind, explored, completeBound, summary }

    /// `{"kind": "minimal" | "budget-spent" | "not-searched", "explored", "completeBound", "summary"}`
    /// (`summary` is `description`; a search not made explored nothing and completed no bound).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let (kind, explored, complete): (String, Int, Int) = switch self {
        case .minimal(let explored, let complete): ("minimal", explored, complete)
        case .budgetSpent(let explored, let complete): ("budget-spent", explored, complete)
        case .notSearched: ("not-searched", 0, -1)
        }
        try container.encode(kind, forKey: .kind)
        try container.encode(explored, forKey: .explored)
        try container.encode(complete, forKey: .completeBound)
        try container.encode(description, forKey: .summary)
    }

    /// Reads what `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let explored = try container.decode(Int.self, forKey: .explored), complete = try container.decode(Int.self, forKey: .completeBound)
        switch try container.decode(String.self, forKey: .kind) {
        case "minimal": self = .minimal(explored: explored, completeBound: complete)
        case "budget-spent": self = .budgetSpent(explored: explored, completeBound: complete)
        case "not-searched":
            let summary = try container.decode(String.self, forKey: .summary)
            self = .notSearched(String(summary.dropFirst(Self.notSearchedPrefix.count)))
        case let other: throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown schedule search kind \(other)")
        }
    }

    private static let notSearchedPrefix = "shrunk, not searched: "

    /// One line for a failure's report.
    public var description: String {
        switch self {
        case .minimal(let explored, _):
            return explored == 0 ? "minimal (no preemption)" : "minimal: every schedule with fewer preemptions passes (\(explored) explored)"
        case .budgetSpent(let explored, let complete):
            let done = complete < 0 ? "none complete" : "all with ≤ \(complete) passed"
            return "shrunk, not proven minimal: the search of fewer preemptions stopped at its budget (\(explored) schedules; \(done))"
        case .notSearched(let why):
            return Self.notSearchedPrefix + why
        }
    }

    /// Searches the schedules of `configuration`'s seed with fewer than `preemptions` preemptions,
    /// judging at most `budget`; `fails` tells the same failure. Returns the fewest-preemption
    /// failing log found (nil: none with fewer) and what the search proved.
    package static func search<Output: Sendable>(
        _ configuration: SimulationConfiguration, preemptions: Int, budget: Int,
        fails: @escaping (SimulationResult<Output>) -> Bool, _ body: @escaping @Sendable () async throws -> Output
    ) -> (decisions: [UInt32]?, search: ScheduleSearch) {
        guard preemptions > 0 else { return (nil, .minimal(explored: 0, completeBound: -1)) }
        guard budget > 0 else { return (nil, .budgetSpent(explored: 0, completeBound: -1)) }
        return outcome(Simulation.explore(configuration, preemptionBound: preemptions - 1, maxSchedules: budget, fails: fails, body))
    }

    /// The same for a scenario run: `prepared` without decisions, `fails` telling the same
    /// failure from a report.
    static func search(
        _ prepared: PreparedRun, preemptions: Int, budget: Int, fails: @escaping (RunReport) -> Bool
    ) -> (decisions: [UInt32]?, search: ScheduleSearch) {
        guard preemptions > 0 else { return (nil, .minimal(explored: 0, completeBound: -1)) }
        guard budget > 0 else { return (nil, .budgetSpent(explored: 0, completeBound: -1)) }
        let exploration = BoundedExplorer.explore(preemptionBound: preemptions - 1, maxSchedules: budget) { prefix in
            let execution = ScenarioRunner.execute(prepared.exploring(prefix))
            return BoundedExplorer.Run(
                choiceCounts: execution.choiceCounts, failed: fails(execution.report), diverged: execution.replayDivergence != nil, detail: ())
        }
        return outcome(exploration)
    }

    /// The failing log an exploration found (nil: none) and what it proved.
    private static func outcome<Detail>(_ exploration: BoundedExplorer.Exploration<Detail>) -> (decisions: [UInt32]?, search: ScheduleSearch) {
        switch exploration.ending {
        case .failed:
            return (exploration.failure?.decisions, .minimal(explored: exploration.schedules, completeBound: exploration.completeBound))
        case .complete:
            return (nil, .minimal(explored: exploration.schedules, completeBound: exploration.completeBound))
        case .stoppedAtLimit:
            return (nil, .budgetSpent(explored: exploration.schedules, completeBound: exploration.completeBound))
        case .nondeterministic(let why):
            return (nil, .notSearched(why))
        }
    }
}
