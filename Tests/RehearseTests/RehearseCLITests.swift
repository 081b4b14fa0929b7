import ChildProcess
import Foundation
import Testing

/// Runs the built `rehearse` binary with `arguments` in a fresh folder; returns exit status and output.
func rehearse(_ arguments: [String]) throws -> (status: Int32, output: String) {
    // The binary next to the test bundle, whatever the scratch path (not only .build/debug).
    let binary = CommandLineRunner.binary
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-cli-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = try ChildProcess.run(binary.path, arguments, directory: folder.path, mergeErrorIntoOutput: true, timeLimit: CommandLineRunner.hangLimit)
    if run.timedOut { throw ChildProcessHang(arguments: arguments, seconds: CommandLineRunner.hangLimit) }
    return (run.status, run.output)
}

@Suite struct RehearseCLITests {
    @Test(arguments: [
        ["run", "no-such-scenario"], ["run", "auction-race", "--param", "bidders=0"], ["run", "auction-race", "--param", "bidders"],
        ["run", "auction-race", "--strategy", "pct:x"], ["run", "auction-race", "--variant", "nope"], ["run"],
        ["run", "auction-race", "--threshold", "placeBid.p42<1s"], ["fuzz", "like-storm", "--seeds", "9..<3"],
        ["replay", "/no/such/file.json"], ["compare", "/no/a.json", "/no/b.json"], ["timeline", "/no/events.csv"], ["bogus"],
    ])
    func badInputExitsTwoWithOneLine(arguments: [String]) throws {
        let (status, output) = try rehearse(arguments)
        #expect(status == 2, "\(arguments): \(output)")
        #expect(output.split(separator: "\n").count == 1, "\(arguments): \(output)")
    }

    /// jemalloc reads the clock while it allocates; the clock interposer's lazy lookup of libc's
    /// `clock_gettime` once allocated (debug builds), so a preloaded jemalloc re-entered it and the
    /// process waited on itself forever at start-up.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2")))
    func startsWithJemallocPreloaded() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"
        let list = try CommandLineRunner.run(["list"], environment: environment)
        #expect(list.status == 0 && list.standardOutput.contains("auction-race"), "\(list.standardError)")
    }

    @Test func listRunReplayAndExitCodes() throws {
        #expect(try rehearse(["list"]).status == 0)
        let pass = try rehearse(["run", "seat-contention", "--seed", "1", "--quiet"])
        #expect(pass.status == 0, "\(pass.output)")
        let fail = try rehearse(["run", "seat-contention", "--seed", "1", "--variant", "seat-random-id", "--quiet"])
        #expect(fail.status == 1)
        #expect(fail.output.contains("rehearse replay"))
        let replay = try rehearse(["replay", "reports/seat-contention/seat-contention-s1-random-seat-random-id/report.json"])
        #expect(replay.status == 0 && replay.output.contains("reproduced: no-seat-double-booked"), "\(replay.output)")
        #expect(!replay.output.contains("note: recorded on"), "the same binary: no note")
        // A report recorded by another build says so first, as an artifact's replay does.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-cli-\(getpid())")
        let reportPath = folder.appendingPathComponent("reports/seat-contention/seat-contention-s1-random-seat-random-id/report.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: reportPath)) as? [String: Any])
        var build = try #require(json["build"] as? [String: Any])
        build["configuration"] = "another-configuration"
        json["build"] = build
        let edited = folder.appendingPathComponent("other-build-report.json")
        try JSONSerialization.data(withJSONObject: json).write(to: edited)
        let noted = try rehearse(["replay", edited.path])
        #expect(noted.output.hasPrefix("note: recorded on") && noted.output.contains("another-configuration"), "\(noted.output)")
        let missed = try rehearse(["run", "seat-contention", "--seed", "1", "--threshold", "reserveSeat.p99<1ns", "--quiet"])
        #expect(missed.status == 1)
        let fuzz = try rehearse(["fuzz", "seat-contention", "--seeds", "1..<4", "--variant", "seat-random-id", "--keep-going", "--world", "default", "--quiet"])
        #expect(fuzz.status == 1 && fuzz.output.contains("3 failed"), "\(fuzz.output)")
    }
}
