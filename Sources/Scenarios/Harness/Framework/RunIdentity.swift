import Sim

/// What identifies one run: scenario, seed, strategy, variant, parameters and swarm. `RunReport`
/// and `FailureArtifact` store one (what ran); `RunRequest.identity` is what a request asks for;
/// each of a sweep's seeds is one (`SweepResult.identity(seed:)`). In JSON its fields are keys
/// of the enclosing object (`scenario`, `seed`, `strategy`, `variant`, `parameters`, `swarm`), the
/// files' flat layout: the owner runs the synthesized coding on its own decoder and encoder.
public struct RunIdentity: Sendable, Hashable, Codable {
    /// The scenario's name.
    public var scenario: String
    /// The seed.
    public var seed: UInt64
    /// The strategy as `--strategy` takes it: what ran (a portfolio's member, PCT with its
    /// measured horizon) in a report or artifact; `load …` (the load model) in a load report.
    public var strategy: String
    /// The Domain variant, nil for the careful design.
    public var variant: String?
    /// Scenario parameters: every resolved value in a report or artifact, the explicit ones in a request.
    public var parameters: [String: Int]
    /// The seed's swarm of fault kinds (nil: the scenario's own faults).
    public var swarm: SwarmConfiguration?
    /// The seed's drawn world: parameters, fault rates, outages (nil: none drawn).
    public var world: World?
    /// The run's limits when they differ from the kernel's defaults.
    public var limits: RunLimits?

    /// An identity with every field given.
    package init(
        scenario: String, seed: UInt64, strategy: String, variant: String? = nil, parameters: [String: Int] = [:],
        swarm: SwarmConfiguration? = nil, world: World? = nil, limits: RunLimits? = nil
    ) {
        self.limits = limits
        self.scenario = scenario
        self.seed = seed
        self.strategy = strategy
        self.variant = variant
        self.parameters = parameters
        self.swarm = swarm
        self.world = world
    }

    /// Deterministic from scenario, seed, strategy and variant: `auction-race-s42-pct-3-careful`
    /// (the report folder's and the failure artifact's name).
    package var runId: String {
        "\(scenario)-s\(seed)-\(strategy.replacingOccurrences(of: ":", with: "-"))-\(variant ?? "careful")"
    }

    /// The `rehearse run` line that reproduces this run: `parameters` restricted to `explicit`
    /// (nil: all), with the timing window when it was set.
    package func commandLine(explicit: Set<String>? = nil, timingWindowNanoseconds: UInt64? = nil) -> RunCommandLine {
        var line = RunCommandLine(
            scenario: scenario, seed: seed, strategy: strategy,
            parameters: explicit.map { names in parameters.filter { names.contains($0.key) } } ?? parameters,
            variant: variant, swarm: swarm != nil, timingWindowNanoseconds: timingWindowNanoseconds, world: world)
        line.limits = limits ?? .standard
        return line
    }
}

/// A record of one run that stores its `RunIdentity` and reads the identity's fields as its own
/// (`RunReport`, `FailureArtifact`): the six forwarding properties live here once.
package protocol IdentifiedRun {
    /// Which run this is.
    var identity: RunIdentity { get set }
}

extension IdentifiedRun {
    /// The scenario's name (`identity.scenario`).
    package var scenario: String { get { identity.scenario } set { identity.scenario = newValue } }
    /// The seed (`identity.seed`).
    package var seed: UInt64 { get { identity.seed } set { identity.seed = newValue } }
    /// The strategy that ran, as `--strategy` takes it (`identity.strategy`).
    package var strategy: String { get { identity.strategy } set { identity.strategy = newValue } }
    /// The Domain variant, nil for the careful design (`identity.variant`).
    package var variant: String? { get { identity.variant } set { identity.variant = newValue } }
    /// Every parameter's resolved value (`identity.parameters`).
    package var parameters: [String: Int] { get { identity.parameters } set { identity.parameters = newValue } }
    /// The seed's swarm of fault kinds, nil for the scenario's own faults (`identity.swarm`).
    package var swarm: SwarmConfiguration? { get { identity.swarm } set { identity.swarm = newValue } }
}
