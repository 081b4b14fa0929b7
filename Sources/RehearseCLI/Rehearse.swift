import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The `rehearse` command: rehearse production before it happens.
@main
struct Rehearse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rehearse",
        abstract: "Run Swift actors deterministically on a seeded simulator with virtual time.",
        discussion: "Exit codes: 0 pass, 1 violation or missed threshold, 2 bad input.",
        version: "rehearse 0.1.0 (\(Fingerprint.current))",
        subcommands: [ListCommand.self, RunCommand.self, ReplayCommand.self, FuzzCommand.self, ShrinkCommand.self, MergeCommand.self, ZooCommand.self, FuzzWorkerCommand.self, TimelineCommand.self, CompareCommand.self, SelfCheckCommand.self, BenchCommand.self, LoadCommand.self]
    )

    /// Parses and runs a subcommand, mapping every usage or input error to exit code 2 with a
    /// one-line message (swift-argument-parser's default is 64).
    static func main() {
        DeterministicHashing.ensure()
        let code: Int32
        do {
            var command = try parseAsRoot()
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
