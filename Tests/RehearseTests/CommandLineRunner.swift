import ChildProcess
import Foundation

/// Runs the built `rehearse` binary (next to the test bundle) and captures its exit code and output.
struct CommandLineRunner {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static var binary: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("rehearse")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/rehearse")
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        // posix_spawn with both pipes drained by poll (ChildProcess), not Foundation's Process.
        let result = try ChildProcess.run(binary.path, arguments, environment: environment)
        return Output(status: result.status, standardOutput: result.output, standardError: result.error)
    }
}
