import Foundation
import RehearsalTestSupport
import Testing

/// The world swarm on the command line: a bad `--world`, `--fault`, `--outage` or a pin against a
/// declared constraint is one line and exit 2 before anything runs; a seed's drawn world prints,
/// lands in its report's identity and replay line, and runs again as printed.
@Suite struct WorldCLITests {
    func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "rehearse-world-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: [
        ["fuzz", "like-storm", "--seeds", "1..<3", "--world", "bogus"],
        ["run", "like-storm", "--fault", "nope=0.1"],
        ["run", "like-storm", "--fault", "trigger-duplicate=2"],
        ["run", "like-storm", "--outage", "sendgrid:2:60"],
        ["run", "like-storm", "--outage", "nope:2:60:120:1"],
        ["run", "like-storm", "--outage", "sendgrid:2:600:60:1"],
        ["run", "kiddush-booking", "--param", "admins=50"],
        ["fuzz", "kiddush-booking", "--seeds", "1..<3", "--param", "admins=50"],
        ["run", "like-storm", "--world", "swarm", "--swarm"],
    ])
    func badWorldInputExitsTwoWithOneLine(arguments: [String]) throws {
        let run = try CommandLineRunner.run(arguments + ["--report-dir", temporaryDirectory()])
        #expect(run.status == 2, "\(arguments): \(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test func aDrawnWorldPrintsReportsAndRunsAgainAsPrinted() throws {
        let dir = temporaryDirectory()
        let first = try CommandLineRunner.run(["run", "kiddush-booking", "--seed", "4", "--world", "swarm", "--report-dir", dir])
        #expect(first.standardOutput.contains(" world: "), "\(first.standardOutput)")
        let reports = try FileManager.default.subpathsOfDirectory(atPath: dir).filter { $0.hasSuffix("report.json") }
        let path = try #require(reports.first.map { "\(dir)/\($0)" })
        let report = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(report["world"] != nil, "the world is part of the identity")
        let line = try #require(report["replayCommand"] as? String)
        let again = try CommandLineRunner.run(Array(line.split(separator: " ").dropFirst().map(String.init)) + ["--report-dir", dir])
        let hash = try #require(report["traceHash"] as? String)
        #expect(again.standardOutput.contains("trace \(hash)"), "\(line)\n\(again.standardOutput)")
    }

    @Test func theDefaultWorldIsTodaysSweep() throws {
        let dir = temporaryDirectory()
        let sweep = try CommandLineRunner.run(["fuzz", "seat-contention", "--seeds", "1..<6", "--world", "default", "--report-dir", dir])
        #expect(sweep.status == 0, "\(sweep.standardOutput)")
        #expect(sweep.standardOutput.contains("world=default"))
        let swarmed = try CommandLineRunner.run(["fuzz", "seat-contention", "--seeds", "1..<6", "--report-dir", dir])
        #expect(swarmed.standardOutput.contains("world=swarm"), "the world swarm is fuzz's default")
    }
}
