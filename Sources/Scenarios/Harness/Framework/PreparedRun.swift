/// A run request resolved against its scenario once: the scenario value, every parameter's value
/// (range-checked and cross-checked), the variant and swarm validated. `ScenarioRunner.prepare`
/// makes one; a sweep prepares its template once and derives each seed's run from it
/// (`seed(_:swarm:)`), so no seed re-parses or re-validates what the sweep already did.
public struct PreparedRun: Sendable {
    /// The scenario to run.
    public let scenario: any Scenario
    /// Every parameter's value.
    public let parameters: ScenarioParameters
    /// The request it was prepared from (its explicit parameters, strategy, variant, …).
    public private(set) var request: RunRequest

    /// Made by `ScenarioRunner.prepare` after validation.
    init(scenario: any Scenario, parameters: ScenarioParameters, request: RunRequest) {
        self.scenario = scenario
        self.parameters = parameters
        self.request = request
    }

    /// The same run at `seed` with `swarm` (drawn for that seed, or nil), replaying no log.
    public func seed(_ seed: UInt64, swarm: SwarmConfiguration?) -> PreparedRun {
        var copy = self
        copy.request.seed = seed
        copy.request.swarm = swarm
        copy.request.decisions = nil
        return copy
    }

    /// The same run at `seed` in `world` (its parameters resolved again, no swarm), replaying no log.
    public func seed(_ seed: UInt64, world: World) throws(ScenarioError) -> PreparedRun {
        var request = self.request
        request.seed = seed
        request.swarm = nil
        request.world = world
        request.decisions = nil
        return try ScenarioRunner.prepare(request, scenario: scenario)
    }

    /// The same run replaying `decisions` (nil: choosing by its strategy).
    public func replaying(_ decisions: [UInt32]?) -> PreparedRun {
        var copy = self
        copy.request.decisions = decisions
        return copy
    }

    /// The same run keeping its full trace or not.
    public func recordingTrace(_ records: Bool) -> PreparedRun {
        var copy = self
        copy.request.recordsTrace = records
        return copy
    }
}
