import Sim

/// Everything that decides one scenario run (plus what the report should carry).
public struct RunRequest: Sendable, Hashable {
    public var scenario: String
    public var seed: UInt64
    public var strategy: SchedulingStrategy
    public var parameters: [String: Int]
    public var variant: String?
    public var thresholds: [Threshold]
    public var recordsTrace: Bool
    public var gitCommit: String?

    public init(
        scenario: String, seed: UInt64, strategy: SchedulingStrategy = .random, parameters: [String: Int] = [:],
        variant: String? = nil, thresholds: [Threshold] = [], recordsTrace: Bool = false, gitCommit: String? = nil
    ) {
        self.scenario = scenario
        self.seed = seed
        self.strategy = strategy
        self.parameters = parameters
        self.variant = variant
        self.thresholds = thresholds
        self.recordsTrace = recordsTrace
        self.gitCommit = gitCommit
    }

    /// Deterministic from scenario, seed, strategy and variant: `auction-race-s42-pct3-careful`.
    public var runId: String {
        let strategyPart = strategy.description.replacingOccurrences(of: ":", with: "-")
        return "\(scenario)-s\(seed)-\(strategyPart)-\(variant ?? "careful")"
    }
}
