import Testing
@testable import Sim
import KernelWorkloads

/// `recordsDecisions = false` (load runs): the same run, its choice points counted, none logged.
@Suite struct DecisionLogTests {
    @Test func unloggedRunIsTheSameRunWithItsChoicePointsCounted() {
        for seed in UInt64(1)...20 {
            var configuration = SimulationConfiguration(seed: seed, strategy: .random, timingWindowNanoseconds: 1_000_000)
            let logged = Simulation.run(configuration) { try await KernelWorkload.auctionRace() }
            configuration.recordsDecisions = false
            let unlogged = Simulation.run(configuration) { try await KernelWorkload.auctionRace() }
            #expect(unlogged.traceHash == logged.traceHash, "seed \(seed)")
            #expect(unlogged.output == logged.output)
            #expect(unlogged.decisions.isEmpty)
            #expect(logged.choicePoints == logged.decisions.count && logged.choicePoints > 0)
            #expect(unlogged.choicePoints == logged.choicePoints)
            #expect(unlogged.timingDecisions == logged.timingDecisions)
        }
    }
}
