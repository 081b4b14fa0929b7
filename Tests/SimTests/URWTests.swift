import Testing
@testable import Sim

/// The uniform random walk (`.urw`, SURW's Algorithm 1): a task is chosen with probability
/// proportional to its remaining steps, so interleavings are sampled uniformly where a uniform
/// choice per step favours early switches.
@Suite struct URWTests {
    /// Figure 5 of the PCT paper: main reads after t1's 20 steps in exactly one of the 21
    /// interleavings of main's read with t1's steps. A uniform sample finds it in 1/21 of runs; a
    /// uniform choice per step needs t1 21 times in a row (2^-21).
    @Test func figure5IsSampledUniformly() {
        let seeds = 2_000
        let urw = PCTPaperTests.hits(.urw, seeds: seeds) { await PaperPrograms.figure5() }
        let random = PCTPaperTests.hits(.random, seeds: seeds) { await PaperPrograms.figure5() }
        print("Figure 5: URW \(urw)/\(seeds) (uniform: 1/21 = \(seeds / 21)), random \(random)/\(seeds)")
        // 1/21 of 2,000 is 95 (σ ≈ 9.5): four σ either side.
        #expect(urw >= 57 && urw <= 133)
        #expect(random == 0)
    }

    @Test func aURWRunReplaysFromItsDecisions() {
        for seed in UInt64(1)...20 {
            let run = Simulation.run(SimulationConfiguration(seed: seed, strategy: .urw)) { await PaperPrograms.figure1b(noise: 3) }
            let again = Simulation.run(SimulationConfiguration(seed: seed, strategy: .urw)) { await PaperPrograms.figure1b(noise: 3) }
            let replay = Simulation.run(SimulationConfiguration(seed: seed, strategy: .replay(decisions: run.decisions))) { await PaperPrograms.figure1b(noise: 3) }
            #expect(run.traceHash == again.traceHash)
            #expect(replay.traceHash == run.traceHash && replay.output == run.output)
        }
        #expect(SchedulingStrategy(parsing: "urw") == .urw && SchedulingStrategy.urw.description == "urw")
    }
}
