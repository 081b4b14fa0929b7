@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import Testing

/// Nothing a run builds outlives it: a fuzz worker runs thousands of seeds in one process, and a
/// context or backend kept alive per seed (apps capture themselves in the handlers they deploy on
/// the backend, a cycle) grew one to a gigabyte. Counts, not timings or RSS: the run's contexts
/// and backends are watched through weak references and must all be freed once the run returns.
@Suite struct RunMemoryTests {
    init() { BuiltInScenarios.register() }

    /// Every context the runs of one request made (PCT runs the body twice), held weakly.
    final class Contexts: @unchecked Sendable {
        struct Entry {
            weak var context: ScenarioContext?
            var backendsBuilt: Int
            var liveBackends: Int
        }
        private(set) var entries: [Entry] = []
        private var strong: [ScenarioContext] = []
        func add(_ context: ScenarioContext) { strong.append(context) }
        /// Reads the backend counts, then lets the contexts go.
        func release() {
            entries = strong.map { Entry(context: $0, backendsBuilt: $0.participantsJoined, liveBackends: $0.liveParticipants) }
            strong = []
        }
    }

    /// Small sizes, so every scenario runs in a debug test in well under a second a seed.
    static let parameters: [String: [String: Int]] = [
        "heartbeat-timeline": ["users": 6, "hours": 12],
        "like-storm": ["users": 4, "actionsPerUser": 4],
        "auction-race": ["bidders": 4, "bidsPerBidder": 3],
    ]

    /// Seeds 1…3 under the fuzz default (portfolio: pct:1, pct:2 and pct:3, the last two with a
    /// measuring run each) with their swarms, as a fuzz worker runs them.
    @Test(arguments: BuiltInScenarios.all.map(\.name))
    func runsFreeTheirContextsAndBackends(scenario: String) throws {
        for seed: UInt64 in 1...3 {
            let request = RunRequest(
                scenario: scenario, seed: seed, strategy: .portfolio, parameters: Self.parameters[scenario] ?? [:],
                swarm: SwarmConfiguration.draw(seed: seed))
            let prepared = try ScenarioRunner.prepare(request)
            let definition = prepared.scenario
            let contexts = Contexts()
            let result = Simulation.run(
                ScenarioRunner.configuration(request),
                ScenarioRunner.body(prepared, sink: contexts.add))
            #expect(result.outcome == .finished, "\(scenario) seed \(seed): \(result.outcome)")
            contexts.release()
            #expect(!contexts.entries.isEmpty)
            for (run, entry) in contexts.entries.enumerated() {
                if definition.usesBackend { #expect(entry.backendsBuilt > 0, "\(scenario) seed \(seed) run \(run) built no backend") }
                #expect(entry.liveBackends == 0, "\(scenario) seed \(seed) run \(run): \(entry.liveBackends) of \(entry.backendsBuilt) backends outlived the run")
                #expect(entry.context == nil, "\(scenario) seed \(seed) run \(run): its ScenarioContext outlived the run")
            }
        }
    }
}
