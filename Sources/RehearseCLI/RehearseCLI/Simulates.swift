/// A subcommand that runs simulations, so it needs virtual time in effect (the program linked with
/// `-Xlinker --export-dynamic`). The others (`list`, `merge`, `help`) work without it; a
/// simulation started anyway still traps in `Simulation.run`, naming the fix.
public protocol Simulates {}

extension Rehearse.RunCommand: Simulates {}
extension Rehearse.ReplayCommand: Simulates {}
extension Rehearse.FuzzCommand: Simulates {}
extension Rehearse.ShrinkCommand: Simulates {}
extension Rehearse.FuzzWorkerCommand: Simulates {}
extension Rehearse.CompareCommand: Simulates {}
extension Rehearse.LoadCommand: Simulates {}
