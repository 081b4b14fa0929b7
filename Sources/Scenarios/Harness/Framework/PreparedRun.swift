/// A run request resolved against its scenario once: the scenario value, every parameter's value
/// (range-checked and cross-checked), the variant and swarm validated. `ScenarioRunner.prepare`
/// makes one; a sweep prepares its template once and derives each seed's run from it
/// (`seed(_:swarm:)`), so no seed re-parses or re-validates what the sweep already did.
package struct PreparedRun: Sendable {
    /// The scenario to run.
    package let scenario: any Scenario
    /// Every parameter's value.
    package let parameters: ScenarioParameters
    /// The request it was prepared from (its explicit parameters, strategy, variant, …).
    package private(set) var request: RunRequest

    /// Made by `ScenarioRunner.prepare` after validation.
    init(scenario: any Scenario, parameters: ScenarioParameters, request: RunRequest) {
        self.scenario = scenario
        self.parameters = parameters
        self.request = request
    }

    /// The run's name: `auction-race-s42-pct-3-careful`, and when a parameter differs from its
    /// default or a world sets faults or outages, a short hash of those (`…-careful-w3fa9c1d2`), so
    /// two such runs never share a report folder.
    package var runId: String {
        let changed = scenario.parameters.filter { parameters[$0] != $0.defaultValue }.map { "\($0.name)=\(parameters[$0])" }
        let world = request.world.map { World(faults: $0.faults, outages: $0.outages) }.map { $0.faults.isEmpty && $0.outages.isEmpty ? "" : "\($0)" } ?? ""
        let text = changed.joined(separator: ",") + world
        guard !text.isEmpty else { return request.runId }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return "\(request.runId)-w\(String(hash >> 32, radix: 16))"
    }

    /// The same run replaying `decisions` (then the default choice), recording every choice point's
    /// alternatives: one schedule of an exploration.
    package func exploring(_ decisions: [UInt32]) -> PreparedRun {
        var copy = self
        copy.request.decisions = decisions
        copy.request.recordsChoices = true
        return copy
    }

    /// The same run at `seed` with `swarm` (drawn for that seed, or nil), replaying no log.
    package func seed(_ seed: UInt64, swarm: SwarmConfiguration?) -> PreparedRun {
        var copy = self
        copy.request.seed = seed
        copy.request.swarm = swarm
        copy.request.decisions = nil
        return copy
    }

    /// The same run at `seed` in `world` (its parameters resolved again, no swarm), replaying no log.
    package func seed(_ seed: UInt64, world: World) throws(ScenarioError) -> PreparedRun {
        var request = self.request
        request.seed = seed
        request.swarm = nil
        request.world = world
        request.decisions = nil
        return try ScenarioRunner.prepare(request, scenario: scenario)
    }

    /// The same run replaying `decisions` (nil: choosing by its strategy).
    package func replaying(_ decisions: [UInt32]?) -> PreparedRun {
        var copy = self
        copy.request.decisions = decisions
        return copy
    }
}
