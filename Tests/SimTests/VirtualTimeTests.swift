import Sim
import Testing

/// With `-Xlinker --export-dynamic` (this target has it) virtual time is in effect: the runtime's
/// clocks read it exactly. (`VirtualTimeRefusalTests` is the target without the flag.)
@Suite struct VirtualTimeTests {
    @Test func virtualTimeIsInEffectAndClocksReadItExactly() {
        #expect(Simulation.virtualTimeProblem == nil)
        let result = Simulation.run(SimulationConfiguration(seed: 7)) { () async throws -> Duration in
            let start = ContinuousClock.now
            try await Task.sleep(for: .seconds(3_600))
            return start.duration(to: ContinuousClock.now)
        }
        #expect(result.outcome.isSuccess)
        #expect(result.output == .seconds(3_600))
        #expect(result.virtualNanoseconds == 3_600_000_000_000)
    }
}
