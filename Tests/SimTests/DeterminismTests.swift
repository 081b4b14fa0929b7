import Foundation
import Testing
@testable import Sim

@Suite struct DeterminismTests {
    @Test func deterministicHashingIsOn() {
        #expect(ProcessInfo.processInfo.environment["SWIFT_DETERMINISTIC_HASHING"] == "1",
                "export SWIFT_DETERMINISTIC_HASHING=1 before running the tests")
    }

    @Test func sameSeedSameHash() {
        for seed in UInt64(0)..<20 {
            let a = Simulation.run(SimulationConfiguration(seed: seed)) { try await racingWorkload() }
            let b = Simulation.run(SimulationConfiguration(seed: seed)) { try await racingWorkload() }
            #expect(a.outcome == .finished, "\(a.outcome)")
            #expect(a.traceHash == b.traceHash)
            #expect(a.output == b.output)
            #expect(a.steps > 100)
        }
    }
}
