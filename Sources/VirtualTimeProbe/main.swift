#if canImport(Glibc)
import Glibc
#endif
import RehearseCLI
import Sim

// Linked WITHOUT `-Xlinker --export-dynamic` on purpose (Package.swift): VirtualTimeRefusalTests
// runs it and expects the simulation to refuse to start, naming the linker setting. With
// arguments it is a user's `Rehearse.main` program: `list` and `merge` must still work there,
// every simulating command must be refused with exit 2.
if CommandLine.arguments.count > 1 { Rehearse.main(scenarios: [], commandName: "probe") }
print(Simulation.virtualTimeProblem == nil ? "virtual time in effect" : "virtual time not in effect")
fflush(nil)
_ = Simulation.run(SimulationConfiguration(seed: 1)) {}
print("a simulation ran")
