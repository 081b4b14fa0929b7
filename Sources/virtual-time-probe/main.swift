#if canImport(Glibc)
import Glibc
#endif
import Harness
import RehearseCLI
import Sim

// Linked WITHOUT `-Xlinker --export-dynamic` on purpose (Package.swift): VirtualTimeRefusalTests
// runs it and expects the simulation to refuse to start, naming the linker setting. With
// arguments it is a user's `Rehearse.main` program with one scenario of its own: `list` and
// `merge` must still work there, every simulating command must be refused with exit 2.

/// A user's scenario: one sleep.
struct ProbeScenario: Scenario {
    let name = "probe-sleep"
    let summary = "sleeps one virtual second"
    let parameters: [ScenarioParameter] = []
    let operations: [String] = []
    let variants: [String] = []
    let checks: [CheckDeclaration] = []
    func run(_ context: ScenarioContext) async throws { try await SimClock().sleep(for: .seconds(1)) }
}

if CommandLine.arguments.count > 1 { Rehearse.main(scenarios: [ProbeScenario()], commandName: "probe") }
print(Simulation.virtualTimeProblem == nil ? "virtual time in effect" : "virtual time not in effect")
fflush(nil)
_ = Simulation.run(SimulationConfiguration(seed: 1)) {}
print("a simulation ran")
