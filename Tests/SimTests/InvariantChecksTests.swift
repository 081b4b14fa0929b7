import Foundation
import KernelWorkloads
@testable import Sim
import Testing

/// The scheduler's deep invariant checks (`checksInternalInvariants`): off by default and free,
/// on with `SIM_INTERNAL_CHECKS=1` (how `.ci/run` runs the kernel's tests), and a run checked
/// deeply is the same run.
@Suite struct InvariantChecksTests {
    @Test func theEnvironmentSwitchesThemOn() {
        let asked = ProcessInfo.processInfo.environment["SIM_INTERNAL_CHECKS"] == "1"
        #expect(SimulationConfiguration(seed: 1).checksInternalInvariants == asked)
    }

    @Test func deepChecksRunAfterEveryMutationAndChangeNothing() {
        for seed in UInt64(1)...20 {
            var plain = SimulationConfiguration(seed: seed, strategy: .random)
            plain.checksInternalInvariants = false
            var checked = plain
            checked.checksInternalInvariants = true
            let a = Simulation.run(plain) { try await KernelWorkload.auctionRace(bidders: 10) }
            let b = Simulation.run(checked) { try await KernelWorkload.auctionRace(bidders: 10) }
            #expect(a.invariantChecks == 0)
            #expect(b.invariantChecks >= b.steps, "seed \(seed): \(b.invariantChecks) checks for \(b.steps) steps")
            #expect(a.traceHash == b.traceHash && a.steps == b.steps && a.output == b.output, "seed \(seed)")
        }
    }
}
