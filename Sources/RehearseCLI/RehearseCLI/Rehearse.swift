#if canImport(Glibc)
import Glibc
#endif

import ArgumentParser
import Harness
import Sim
import Synchronization

/// The `rehearse` command line: `Rehearse.main(scenarios:)` runs it with a user's own scenarios
/// added, so her executable is a full `rehearse` (list, run, replay, fuzz, shrink, merge, …).
public struct Rehearse: ParsableCommand {
    /// The subcommands and help (the command name is the program's, see `main(scenarios:commandName:)`).
    public static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: ScenarioRegistry.commandName,
        abstract: "Run Swift actors deterministically on a seeded simulator with virtual time.",
        discussion: "Exit codes: 0 pass, 1 violation or missed threshold, 2 bad input.",
        version: "rehearse 0.1.0 (\(Fingerprint.current))",
        subcommands: [ListCommand.self, RunCommand.self, ReplayCommand.self, FuzzCommand.self, ExploreCommand.self, ShrinkCommand.self, MergeCommand.self, FuzzWorkerCommand.self, CompareCommand.self, LoadCommand.self]
            + tools.withLock { $0 }
    ) }

    /// Commands a program adds to the core ones (`main(scenarios:commandName:tools:)`).
    private static let tools = Mutex<[any ParsableCommand.Type]>([])

    /// The root command has no options of its own.
    public init() {}

    /// Runs the command line with `scenarios` registered (their names must be new), as
    /// `commandName` (what replay hints print; default: this executable's file name), with `tools`
    /// added to the core commands (the built-in `rehearse` adds `zoo`, `timeline`, `bench`,
    /// `selfcheck`; a tool that simulates conforms to `Simulates`). Never returns: exits 0 pass,
    /// 1 violation or missed threshold, 2 bad input. The executable must be linked with
    /// `-Xlinker --export-dynamic` (docs/depend-on-rehearsal.md).
    public static func main(scenarios: [any Scenario], commandName: String? = nil, tools: [any ParsableCommand.Type] = []) -> Never {
        Self.tools.withLock { $0 = tools }
        ScenarioRegistry.commandName = commandName ?? CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "rehearse") } ?? "rehearse"
        do {
            try ScenarioRegistry.register(scenarios)
        } catch {
            printError(error.description)
            fflush(nil)
            Glibc.exit(2)
        }
        main()
    }

    /// Parses and runs a subcommand, mapping every usage or input error to exit code 2 with a
    /// one-line message (swift-argument-parser's default is 64).
    static func main() -> Never {
        DeterministicHashing.ensure()
        let code: Int32
        do {
            var command = try parseAsRoot()
            // Only commands that simulate need virtual time; `list` and `merge` run without it, and
            // help, version and usage errors are answered by the parser above.
            if command is any Simulates, let problem = Sim.Simulation.virtualTimeProblem {
                printError(problem)
                fflush(nil)
                Glibc.exit(2)
            }
            try command.run()
            code = 0
        } catch let error as RehearseError {
            printError(error.description)
            code = error.exitCode
        } catch {
            let exit = exitCode(for: error)
            if exit == .success {
                print(fullMessage(for: error))
                code = 0
            } else if let explicit = error as? ExitCode {
                code = explicit.rawValue
            } else {
                let message = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
                printError(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
                code = 2
            }
        }
        fflush(nil)
        Glibc.exit(code)
    }

    static func printError(_ message: String) {
        StandardError.write("error: \(message)\n")
    }
}
