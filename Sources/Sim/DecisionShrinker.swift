/// Minimises a failing run's decisions log by delta debugging (Zeller's ddmin): it tries to turn
/// sets of non-default choices (preemptions; see `SchedulingStrategy.replay`) into default ones
/// and keeps every change after which the run still fails the same way, until no single
/// preemption can be dropped.
///
/// Each candidate is a full run under `.replay(decisions:)`; the log of the run that still fails
/// becomes the new baseline, so later indices are always read against the ready sets they saw.
public enum DecisionShrinker {
    /// The smallest failing decisions log found, and what it took.
    public struct Outcome: Sendable {
        /// Replay these with `.replay(decisions:)` to reproduce the failure.
        public var decisions: [UInt32]
        /// Non-default choices (preemptions) before and after.
        public var preemptionsBefore: Int
        /// Non-zero decisions left in the shrunk log.
        public var preemptionsAfter: Int
        /// Runs spent shrinking.
        public var runs: Int

        /// `decisions` kept as found, no run spent (a failure whose schedule is not the finding).
        public static func asFound(_ decisions: [UInt32]) -> Outcome {
            let preemptions = DecisionShrinker.preemptions(decisions)
            return Outcome(decisions: decisions, preemptionsBefore: preemptions, preemptionsAfter: preemptions, runs: 0)
        }
    }

    /// Shrinks the decisions of `configuration` (which must fail per `stillFails`) within
    /// `maxRuns` runs. `stillFails` decides whether a candidate run reproduces the same failure.
    public static func shrink<Output: Sendable>(
        _ configuration: SimulationConfiguration,
        decisions: [UInt32],
        maxRuns: Int = 400,
        stillFails: @escaping (SimulationResult<Output>) -> Bool,
        _ body: @escaping @Sendable () async throws -> Output
    ) -> Outcome {
        var runs = 0
        var best = trimmed(decisions)
        let before = preemptions(best)

        /// Runs `candidate`; returns the run's own (trimmed) log if it still fails.
        func attempt(_ candidate: [UInt32]) -> [UInt32]? {
            runs += 1
            var replay = configuration
            replay.strategy = .replay(decisions: candidate)
            replay.recordsTrace = false
            let result = Simulation.run(replay, body)
            return stillFails(result) ? trimmed(result.decisions) : nil
        }

        var granularity = 2
        while runs < maxRuns {
            let positions = best.indices.filter { best[$0] != 0 }
            if positions.isEmpty { break }
            let chunkSize = max(1, (positions.count + granularity - 1) / granularity)
            var improved = false
            var start = 0
            while start < positions.count, runs < maxRuns {
                let chunk = positions[start..<min(positions.count, start + chunkSize)]
                var candidate = best
                for index in chunk { candidate[index] = 0 }
                if let smaller = attempt(trimmed(candidate)), preemptions(smaller) < preemptions(best) {
                    best = smaller
                    improved = true
                    break
                }
                start += chunkSize
            }
            if improved {
                granularity = max(2, granularity - 1)
            } else if chunkSize == 1 {
                break
            } else {
                granularity = min(positions.count, granularity * 2)
            }
        }
        return Outcome(decisions: best, preemptionsBefore: before, preemptionsAfter: preemptions(best), runs: runs)
    }

    /// Number of non-default choices (preemptions) in a log.
    public static func preemptions(_ decisions: [UInt32]) -> Int { decisions.reduce(0) { $0 + ($1 == 0 ? 0 : 1) } }

    /// The log without trailing default choices (replay takes the default past its end anyway).
    static func trimmed(_ decisions: [UInt32]) -> [UInt32] {
        var end = decisions.count
        while end > 0, decisions[end - 1] == 0 { end -= 1 }
        return Array(decisions[..<end])
    }
}
