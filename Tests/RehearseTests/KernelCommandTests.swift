import ChildProcess
import Foundation
import RehearsalTestSupport
import Testing

@Suite struct KernelCommandTests {
    @Test func versionNamesTheBuild() throws {
        let output = try CommandLineRunner.run(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("rehearse 0.1.0 (swift 6."))
    }

    /// The fingerprint names the binary by its GNU build ID (a stale binary's reports cannot pass
    /// for the tree's commit): the ID printed is the one `readelf -n` reads from the file.
    @Test func versionNamesTheBinaryByItsBuildID() throws {
        let output = try CommandLineRunner.run(["--version"])
        let printed = try #require(output.standardOutput.firstMatch(of: /binary ([0-9a-f]{12})\)/)).output.1
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf") else { return }
        let notes = try ChildProcess.run("/usr/bin/readelf", ["-n", CommandLineRunner.binary.path]).output
        let fromFile = try #require(notes.firstMatch(of: /Build ID: ([0-9a-f]+)/)).output.1
        #expect(fromFile.hasPrefix(printed), "readelf says \(fromFile), rehearse printed \(printed)")
    }

    @Test func selfcheckPassesAndReportsThroughput() throws {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-selfcheck-\(getpid()).jsonl").path
        let output = try CommandLineRunner.run(["selfcheck", "--seeds", "40", "--jobs", "2", "--bidders", "10", "--trace", trace])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("seeds/s"))
        #expect(output.standardOutput.contains("M jobs/s"))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"trace_hash\"") == true)
        #expect(lines.count > 100)
    }

    @Test(arguments: [
        ["selfcheck", "--seeds", "0"],
        ["selfcheck", "--jobs", "0"],
        ["selfcheck", "--strategy", "pct:0"],
        ["selfcheck", "--strategy", "lifo"],
        ["selfcheck", "--seeds", "many"],
        ["bench", "--messages", "5"],
        ["no-such-command"],
    ])
    func badInputExitsWithTwoAndOneLine(arguments: [String]) throws {
        let output = try CommandLineRunner.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.standardError)")
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(output.standardError)")
        #expect(lines.first?.hasPrefix("error: ") == true)
    }

    @Test func reexecutesWithDeterministicHashing() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = nil
        let output = try CommandLineRunner.run(["selfcheck", "--seeds", "3", "--jobs", "1", "--bidders", "5"], environment: environment)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("deterministic hashing: on"))
    }
}

@Suite(.ciOnly, .tags(.subprocess)) struct BenchCommandTests {
    @Test(arguments: [
        ["bench", "--only", "kernel,bogus"],
        ["bench", "--only", ""],
        ["bench", "--users", "0"],
        ["bench", "--seeds", "1"],
        ["bench", "--memory-users", "5"],
    ])
    func badInputExitsWithTwo(arguments: [String]) throws {
        let output = try CommandLineRunner.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.standardError)")
        #expect(output.standardError.hasPrefix("error: "))
    }

    /// The simulator and the TestClock driver run the same 72-hour timeline and the bench compares
    /// their outcomes. TestClock's driver runs on real threads, so on a loaded machine its yields
    /// can miss woken work (the bench's point): the comparison must be made and said either way,
    /// and the simulator's row must be the same in every run.
    @Test(.ciOnly, .tags(.subprocess)) func timelineDriversAreCompared() throws {
        let arguments = ["bench", "--only", "timeline", "--users", "200", "--testclock-users", "40", "--repetitions", "1"]
        let output = try CommandLineRunner.run(arguments)
        #expect(output.status == 0, "\(output.standardError)")
        let text = output.standardOutput
        #expect(text.contains("outcomes equal") || (text.contains("outcomes DIFFER") && text.contains("MISMATCH: the TestClock run")), "\(text)")
        func simulatorOutcomes(_ text: String) -> [String] {
            // The row is "name  users  wall-seconds  virtual-hours  outcome; …": the outcome follows the
            // hours column (" 72  "), which a wall time such as "0.72" cannot be mistaken for.
            text.split(separator: "\n").filter { $0.hasPrefix("simulator (FIFO)") }.map { line in
                line.firstMatch(of: /\s72  ([^;]*);/).map { String($0.1) } ?? ""
            }
        }
        let again = try CommandLineRunner.run(arguments)
        #expect(simulatorOutcomes(text).count == 2 && !simulatorOutcomes(text).contains(""), "\(text)")
        #expect(simulatorOutcomes(text) == simulatorOutcomes(again.standardOutput), "the simulator's outcome must not depend on the run")
    }

    @Test func seedsAndMemorySectionsReport() throws {
        let output = try CommandLineRunner.run([
            "bench", "--only", "seeds,memory", "--seeds", "20", "--scenario-seeds", "4", "--memory-users", "500", "--repetitions", "1",
        ])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("seeds/s"))
        #expect(output.standardOutput.contains("bytes per idle user"))
    }
}
