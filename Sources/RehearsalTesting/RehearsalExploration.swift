import Sim

/// What `Rehearsal.explore` did: how many schedules it judged, whether every schedule within the
/// bound ran, and the failure it found (the cheapest: no schedule with fewer preemptions fails).
public struct RehearsalExploration: Sendable, Hashable, CustomStringConvertible {
    /// The bound asked for.
    public var preemptionBound: Int
    /// Distinct schedules judged, by their number of preemptions (index 0: none).
    public var schedulesByPreemptions: [Int]
    /// Runs made (each round re-runs cheaper schedules to reach its own).
    public var runs: Int
    /// Whether every schedule within the bound ran (false: a failure, the limit or nondeterminism stopped it).
    public var complete: Bool
    /// The failing schedule, with its replay call (nil: none found).
    public var failure: RehearsalFailure?
    /// One line: "all 122 schedules with ≤ 2 preemptions explored: no failure (…)", or where it stopped.
    public var summary: String

    /// Distinct schedules judged.
    public var schedules: Int { schedulesByPreemptions.reduce(0, +) }

    /// The summary line.
    public var description: String { summary }
}
