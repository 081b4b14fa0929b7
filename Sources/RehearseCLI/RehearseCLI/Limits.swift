/// The bounds of every numeric command-line option, in one place: a value outside is bad input
/// (exit 2) whose message names the option and the bound, never an overflow, a huge
/// allocation or a hang. Scenario-level bounds (sweep size, threshold size, input file size)
/// live in `ScenarioLimits`.
package enum Limits {
    /// Worker processes or threads (`fuzz --jobs`, `selfcheck --jobs`).
    package static let jobs = 1...64
    /// Shards of one sweep (`--shard i/n`, `--shards`, JOB_COMPLETIONS).
    package static let shards = 1...100_000
    /// Runs the shrinker may spend (`fuzz --shrink-runs`, `shrink --max-runs`, `zoo --shrink-runs`).
    package static let shrinkRuns = 1...100_000
    /// `explore --preemption-bound`: schedules grow as (choice points)^k, so past a few nothing finishes.
    package static let preemptionBound = 0...8
    /// `explore --max-schedules`.
    package static let exploreSchedules = 1...10_000_000
    /// `fuzz --determinism-every` (0: off).
    package static let determinismEvery = 0...1_000_000
    /// `selfcheck --seeds`: each seed is kept as a verdict in memory.
    package static let selfcheckSeeds = 1...1_000_000
    /// `selfcheck --bidders`: one seed's racing workload grows quadratically with bidders.
    package static let selfcheckBidders = 1...1_000
    /// `zoo --seeds`.
    package static let zooSeeds = 1...10_000
    /// `bench --messages`.
    package static let benchMessages = 1_000...10_000_000
    /// `bench --repetitions`.
    package static let benchRepetitions = 1...100
    /// `bench --users` and `--memory-users` (simulated users held in memory at once).
    package static let benchUsers = 1...2_000_000
    /// `bench --testclock-users` (TestClock is far slower than the simulator).
    package static let benchTestClockUsers = 1...100_000
    /// `bench --seeds` and `--scenario-seeds`.
    package static let benchSeeds = 2...1_000_000
    /// `load --vus`.
    package static let loadUsers = 1...10_000
    /// `rehearse conformance --programs`.
    package static let conformancePrograms = 0...1_000_000
    /// `rehearse conformance --rules-requests`: per app.
    package static let conformanceRulesRequests = 0...10_000_000
    /// `rehearse conformance --jobs`: programs in flight against one server.
    package static let conformanceJobs = 1...64
    /// `load --max-in-flight`.
    package static let loadInFlight = 1...1_000_000

    /// Bad input naming `option`, `value` and the named bound `limit` when `value` is outside `range`.
    package static func check(_ value: Int, in range: ClosedRange<Int>, option: String, limit: String) throws {
        guard range.contains(value) else {
            throw InputError.fail("\(option) \(value) is out of range: it must be in \(range.lowerBound)...\(range.upperBound) (Limits.\(limit))")
        }
    }

    /// A seed from the command line: a whole number in 0...UInt64.max (a clearer message than
    /// the parser's for `-1`, `1.5` or a number beyond UInt64).
    package static func seed(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else {
            throw InputError.fail("seed '\(text)' is not a whole number in 0...\(UInt64.max)")
        }
        return value
    }
}
