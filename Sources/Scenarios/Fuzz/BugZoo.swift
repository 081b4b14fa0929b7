import Sim

/// The planted bugs the harness must find (the domain's variants), with the scenario that
/// catches each, and a measurement of how fast random and PCT find them and how small the
/// shrunk case is (`rehearse zoo`).
public enum BugZoo {
    /// One planted bug.
    public struct Bug: Sendable, Hashable {
        public var variant: String
        public var app: String
        public var scenario: String
        /// What the bug needs: `depth-1` (sequential), `depth-2` (one wrong interleaving),
        /// `depth-3`, or `fault:` the fault it needs (duplicate triggers, contention).
        public var needs: String
        /// Scenario parameters for every seed the zoo runs (e.g. a small `users` so each seed is fast).
        public var parameters: [String: String] = [:]
    }

    /// SafeNSound on heartbeat-timeline at 40 users: about 1.3 s per seed in debug.
    static let heartbeatSmall = ["users": "40"]

    /// Every bug with a scenario that can run it, in catalogue order.
    public static let bugs: [Bug] = [
        Bug(variant: "bid-burst-loses-bids", app: "knb", scenario: "auction-race", needs: "fault:contention"),
        Bug(variant: "buy-now-outside-transaction", app: "knb", scenario: "auction-race", needs: "depth-2"),
        Bug(variant: "outbid-rereads-live-doc", app: "knb", scenario: "auction-race", needs: "depth-2"),
        Bug(variant: "outbid-no-dedup", app: "knb", scenario: "auction-race", needs: "fault:duplicate-triggers"),
        Bug(variant: "outbid-self-notify", app: "knb", scenario: "auction-race", needs: "depth-1"),
        Bug(variant: "total-pledged-increment", app: "knb", scenario: "auction-race", needs: "fault:duplicate-triggers"),
        Bug(variant: "like-arrayunion-increment", app: "knb", scenario: "like-storm", needs: "depth-2"),
        Bug(variant: "unlike-nonliker-decrements", app: "knb", scenario: "like-storm", needs: "depth-1"),
        Bug(variant: "reply-count-trigger-increment", app: "knb", scenario: "like-storm", needs: "fault:duplicate-triggers"),
        Bug(variant: "seat-random-id", app: "knb", scenario: "seat-contention", needs: "depth-2"),
        Bug(variant: "kiddush-random-id", app: "knb", scenario: "kiddush-booking", needs: "depth-2"),
        Bug(variant: "kiddush-setdata-overwrite", app: "knb", scenario: "kiddush-booking", needs: "depth-2"),
        Bug(variant: "kiddush-check-send-set", app: "knb", scenario: "kiddush-booking", needs: "depth-3+fault:duplicate-triggers"),
        // SafeNSound: most flaws show sequentially (a pause, the DST change, a late alert); the
        // rate-limit race needs two same-instant calls split between read and write.
        Bug(variant: "random-alert-id", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "unclaimed-sender", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "no-heartbeat-recheck", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "late-pre-notification", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "read-then-write-rate-limit", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-2", parameters: heartbeatSmall),
        Bug(variant: "utc-email", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
        Bug(variant: "wall-clock-threshold", app: "safensound", scenario: "heartbeat-timeline", needs: "depth-1", parameters: heartbeatSmall),
    ].filter { bug in (try? ScenarioRegistry.scenario(named: bug.scenario))?.variants.contains(bug.variant) ?? false }

    /// What the zoo measured for one bug.
    public struct Measurement: Sendable, Codable {
        public var variant: String
        public var app: String
        public var needs: String
        /// First failing seed (1-based count of seeds tried), nil if none within the cap.
        public var seedsToFailureRandom: Int?
        public var seedsToFailurePCT: Int?
        public var shrunkPreemptions: Int?
        public var preemptionsBefore: Int?
        public var storyEvents: Int?
        public var check: String?
    }

    /// Measures `bug`: seeds 1...`maxSeeds` with random and with PCT (depth 3), then shrinks the
    /// first PCT failure (or random's) within `shrinkRuns` runs. Scenario defaults overridden by
    /// `bug.parameters`, no swarm.
    public static func measure(_ bug: Bug, maxSeeds: Int, shrinkRuns: Int) throws(ScenarioError) -> Measurement {
        precondition(maxSeeds >= 1, "the zoo needs at least one seed per bug")
        var parameters: [String: Int] = [:]
        for name in bug.parameters.keys.sorted() {
            guard let value = Int(bug.parameters[name]!) else { throw .malformedParameter("\(name)=\(bug.parameters[name]!)") }
            parameters[name] = value
        }
        func firstFailure(_ strategy: SchedulingStrategy) throws(ScenarioError) -> (Int, RunRequest)? {
            for seed in 1...UInt64(maxSeeds) {
                let request = RunRequest(scenario: bug.scenario, seed: seed, strategy: strategy, parameters: parameters, variant: bug.variant)
                if !(try ScenarioRunner.execute(request).report.passed) { return (Int(seed), request) }
            }
            return nil
        }
        let random = try firstFailure(.random)
        let pct = try firstFailure(.pct(depth: 3, horizon: SchedulingStrategy.pctDefaultHorizon))
        var measurement = Measurement(variant: bug.variant, app: bug.app, needs: bug.needs, seedsToFailureRandom: random?.0, seedsToFailurePCT: pct?.0)
        if let failing = pct?.1 ?? random?.1 {
            let shrunk = try FailureShrinker.shrink(failing, maxRuns: shrinkRuns)
            measurement.shrunkPreemptions = shrunk.artifact.shrink?.preemptionsAfter
            measurement.preemptionsBefore = shrunk.artifact.shrink?.preemptionsBefore
            measurement.storyEvents = shrunk.artifact.story.count
            measurement.check = shrunk.artifact.violation?.check ?? shrunk.artifact.kind
        }
        return measurement
    }
}
