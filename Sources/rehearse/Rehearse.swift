import ArgumentParser
import Foundation

/// The `rehearse` command: runs scenarios deterministically on the simulator.
/// Exit codes: 0 pass, 1 violation or missed threshold, 2 bad input.
@main
struct Rehearse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse",
        abstract: "Run real Swift actors deterministically against simulated Firebase apps.",
        subcommands: [ListCommand.self, RunCommand.self, ReplayCommand.self, FuzzCommand.self, TimelineCommand.self, CompareCommand.self])

    /// Parses and runs; usage and validation errors exit 2 (not ArgumentParser's 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = fullMessage(for: error)
                FileHandleOutput.standardError(message.split(separator: "\n").first.map(String.init) ?? message)
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
