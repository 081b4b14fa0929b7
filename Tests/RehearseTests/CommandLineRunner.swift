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

    /// A child still running after this long is killed and reported as a hang: far above any run
    /// the tests make, even on a loaded 2-core machine, so it only ever catches a real hang.
    static let hangLimit: Double = 600

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Output {
        // posix_spawn with both pipes drained by poll (ChildProcess), not Foundation's Process.
        let result = try ChildProcess.run(binary.path, arguments, environment: environment, timeLimit: hangLimit)
        if result.timedOut { throw ChildProcessHang(arguments: arguments, seconds: hangLimit) }
        return Output(status: result.status, standardOutput: result.output, standardError: result.error)
    }
}

/// A child process the tests ran did not end within `CommandLineRunner.hangLimit`.
struct ChildProcessHang: Error, CustomStringConvertible {
    var arguments: [String]
    var seconds: Double
    var description: String { "rehearse \(arguments.joined(separator: " ")) still ran after \(Int(seconds)) s: killed as a hang" }
}
