/// What a load run adds to a `RunReport` (absent in scenario runs).
public struct LoadSummary: Sendable, Hashable, Codable {
    /// `open` (arrival-rate executors) or `closed` (VU executors).
    public var model: String
    /// k6's executor name: `constant-arrival-rate`, `ramping-arrival-rate`, `constant-vus`, `ramping-vus`.
    public var executor: String
    /// The executor as given: `constant-arrival-rate rate=500/s duration=10m max-vus=10000`.
    public var description: String
    /// Open model: the (starting) rate per second.
    public var targetRatePerSecond: Double?
    /// Open model: the last stage's rate per second (ramping only).
    public var rampToPerSecond: Double?
    /// Closed model: the most virtual users at once.
    public var virtualUsers: Int?
    /// Closed model: pause after each iteration.
    public var thinkTimeNanoseconds: UInt64?
    /// Ramping executors: k6's stages, `30s:100,1m:500`.
    public var stages: String?
    /// The executor's duration.
    public var durationNanoseconds: UInt64
    /// Iterations started, and finished before the run stopped.
    public var iterationsStarted: Int
    /// Iterations that finished before the run stopped.
    public var iterationsCompleted: Int
    /// Iterations started per second of the executor's duration (the load actually offered).
    public var achievedRatePerSecond: Double
    /// Iterations finished per second of the run's elapsed time.
    public var throughputPerSecond: Double
    /// Time (virtual or wall, see the report's `clock`) from the first arrival until the last
    /// iteration finished, or the graceful stop ran out.
    public var elapsedNanoseconds: UInt64
    /// Operations that failed (after the client's retries), by operation.
    public var errors: [String: Int]
    /// Open model: arrivals not started because `maxVUs` iterations were running (k6's `dropped_iterations`).
    public var droppedIterations: Int
    /// Open model: k6's `maxVUs`, the bound on iterations running at once.
    public var maxVUs: Int
    /// The most iterations that ran at once.
    public var peakInFlight: Int
    /// Iterations still running when the graceful stop ran out (abandoned).
    public var abandoned: Int
    /// Cores the run could use (1 on the simulator).
    public var cores: Int
    /// Wall time of the profile's set-up before the first arrival (users signed up, data seeded;
    /// not timed as load); absent for virtual runs.
    public var setupNanoseconds: UInt64?
    /// The real server the run drove (`--backend`); absent when it drove the simulated backend.
    public var server: String?
    /// What the report says of that server: real and simulated services, what it does not
    /// model, what it delivered.
    public var serverNotes: [String]?
    /// The share this run was (`0/4`: every 4th arrival from the first, or every 4th virtual
    /// user); absent for a whole run. `rehearse merge` combines a complete set of shares.
    public var shard: String?
    /// Each operation's latency histogram (µs, HdrHistogram's compressed base64 encoding), what
    /// `rehearse merge` adds up over shards.
    public var histograms: [String: String]?
    /// The shard reports a merged report was made from (absent otherwise).
    public var mergedShards: Int?
    /// When the run stopped early because its real server stopped answering (ns from the first
    /// arrival's start); absent for a run that ran to its end. Such a report is incomplete.
    public var stoppedEarlyNanoseconds: UInt64?
}
