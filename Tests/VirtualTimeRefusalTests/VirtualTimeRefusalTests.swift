#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import Foundation
import Testing

/// `virtual-time-probe` is linked WITHOUT `-Xlinker --export-dynamic` (Package.swift; a test
/// bundle cannot be: SwiftPM links every test target into one binary). Its clock interposer is
/// invisible to the runtime's libraries, so its simulation must refuse to start, naming the fix.
@Suite struct VirtualTimeRefusalTests {
    @Test func aSimulationRefusesToStartAndNamesTheLinkerSetting() throws {
        let run = try ChildProcess.run(try Self.probe().path, [])
        let output = run.output, error = run.error
        #expect(output.contains("virtual time not in effect"))
        #expect(!output.contains("a simulation ran"))
        #expect(run.signal != nil)
        #expect(error.contains("virtual time is not in effect"))
        #expect(error.contains(#"linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]"#))
    }

    /// As a user's `Rehearse.main` program linked without the flag: `list` (and `--help`) still
    /// work, `run` is refused with exit 2 and one line naming the linker setting, never run on the
    /// real clock.
    @Test func aRehearseProgramListsButRefusesToSimulate() throws {
        let list = try Self.runProbe(["list"])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("probe-sleep") && !list.output.contains("auction-race"), "a user's program lists her scenarios only")
        let help = try Self.runProbe(["--help"])
        #expect(help.status == 0 && help.output.contains("USAGE"), "\(help.error)")
        let run = try Self.runProbe(["run", "probe-sleep", "--seed", "1", "--report-dir", FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(getpid())").path])
        #expect(run.status == 2)
        #expect(run.error.contains("virtual time is not in effect"), "\(run.error)")
        #expect(run.error.split(separator: "\n").count == 1)
        #expect(!run.output.contains("PASS") && !run.output.contains("FAIL"))
    }

    /// Runs the probe with `arguments`: exit status, standard output and standard error.
    static func runProbe(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let run = try ChildProcess.run(try probe().path, arguments)
        return (run.signal == nil ? run.status : 128 + run.status, run.output, run.error)
    }

    /// The probe binary next to the test bundle.
    static func probe() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("virtual-time-probe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }
}
