#if canImport(Glibc)
import Glibc
#endif
import Sim

// Linked WITHOUT `-Xlinker --export-dynamic` on purpose (Package.swift): VirtualTimeRefusalTests
// runs it and expects the simulation to refuse to start, naming the linker setting.
print(Simulation.virtualTimeProblem == nil ? "virtual time in effect" : "virtual time not in effect")
fflush(nil)
_ = Simulation.run(SimulationConfiguration(seed: 1)) {}
print("a simulation ran")
