import ArgumentParser
import RealFirebase
import RehearseCLI

/// The built-in `rehearse`'s own commands: they know the five apps and the kernel's workloads, so a
/// user's `Rehearse.main(scenarios:)` does not ship them.
public enum RehearseTools {
    /// `zoo`, `timeline`, `selfcheck`, `bench` and `conformance`, in help order.
    public static let commands: [any ParsableCommand.Type] = [
        Rehearse.ZooCommand.self, Rehearse.TimelineCommand.self, SelfCheckCommand.self, BenchCommand.self, ConformanceCommand.self,
    ]

    /// Registers the real servers `rehearse load --backend` can name (`emulator`, `firestore`).
    public static func registerServers() {
        EmulatorLoadServer.register()
        ProjectLoadServer.register()
    }
}
