import Foundation
import RehearsalTestSupport
import Testing

/// `rehearse load`: short real-runtime runs of each profile (no timing assertions, only counts
/// and the report's shape) and its bad-input errors.
@Suite(.serialized) struct LoadCommandTests {
    static func reportJSON(_ folder: URL, scenario: String, runId: String) throws -> [String: Any] {
        let url = folder.appendingPathComponent("\(scenario)/\(runId)/report.json")
        let data = try Data(contentsOf: url)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func freshFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rehearse-load-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// seat-contention: the profile with no triggers, whose settle needs no wall-clock wait for the
    /// platform's delays (a retried trigger backs off 10 s to 10 min in real time; docs/load.md).
    /// The virtual runs of every profile are LoadChecksTests'.
    @Test(.ciOnly, .tags(.subprocess), arguments: [("seat-contention", "reserveSeat")])
    func openModelRunWritesWallClockReport(scenario: String, operation: String) throws {
        let folder = try Self.freshFolder()
        let result = try CommandLineRunner.run(["load", scenario, "--rate", "50/s", "--duration", "1s", "--report-dir", folder.path, "--quiet"])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let report = try Self.reportJSON(folder, scenario: scenario, runId: "\(scenario)-load-wall-constant-arrival-rate-50ps")
        #expect(report["clock"] as? String == "wall")
        let latency = try #require(report["latency"] as? [[String: Any]])
        let count = latency.first { $0["operation"] as? String == operation }?["count"] as? Int ?? 0
        #expect(count >= 1 && count <= 50, "\(operation) count \(count)")
        let load = try #require(report["load"] as? [String: Any])
        #expect(load["model"] as? String == "open")
        #expect((load["iterationsStarted"] as? Int ?? 0) <= 50)
        let markdown = try String(contentsOf: folder.appendingPathComponent("\(scenario)/\(scenario)-load-wall-constant-arrival-rate-50ps/report.md"), encoding: .utf8)
        #expect(markdown.contains("clock: wall"))
    }

    @Test(.ciOnly, .tags(.subprocess)) func closedModelAndRampAndThreshold() throws {
        let folder = try Self.freshFolder()
        let closed = try CommandLineRunner.run(["load", "seat-contention", "--vus", "3", "--think-time", "50ms", "--duration", "1s", "--report-dir", folder.path])
        #expect(closed.status == 0, "\(closed.standardOutput) \(closed.standardError)")
        let report = try Self.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-wall-constant-vus-3vus")
        #expect(report["clock"] as? String == "wall")
        #expect((report["load"] as? [String: Any])?["virtualUsers"] as? Int == 3)
        // The users ran (on a loaded machine a user may start late and finish no iteration in 1 s).
        #expect((report["steps"] as? Int ?? 0) >= 1)

        let ramp = try CommandLineRunner.run(["load", "seat-contention", "--rate", "10/s", "--ramp-to", "40/s", "--duration", "1s", "--report-dir", folder.path, "--quiet"])
        #expect(ramp.status == 0, "\(ramp.standardOutput) \(ramp.standardError)")
        // 10 → 40/s over 1 s: 25 arrivals.
        let rampReport = try Self.reportJSON(folder, scenario: "seat-contention", runId: "seat-contention-load-wall-ramping-arrival-rate-10ps-to-40ps")
        #expect((rampReport["load"] as? [String: Any])?["iterationsStarted"] as? Int == 25)

        let missed = try CommandLineRunner.run(["load", "seat-contention", "--rate", "20/s", "--duration", "500ms", "--threshold", "reserveSeat.p99<1ns", "--report-dir", folder.path, "--quiet"])
        #expect(missed.status == 1, "\(missed.standardOutput) \(missed.standardError)")
        #expect(missed.standardOutput.contains("threshold reserveSeat.p99<1ns missed"))
    }

    @Test(arguments: [
        ["load", "no-such-scenario", "--rate", "5/s", "--duration", "1s"],
        ["load", "auction-race", "--rate", "5/s", "--stages", "10s"],
        ["load", "auction-race", "--rate", "5/s", "--stages", "10s:5", "--duration", "1s"],
        ["load", "auction-race", "--vus", "2", "--duration", "1s", "--executor", "constant-arrival-rate"],
        ["load", "auction-race", "--rate", "5/s", "--duration", "1s", "--variant", "no-such-variant"],
        ["compare", "auction-race", "--variant", "no-such-variant", "--rate", "5/s", "--duration", "1s"],
        ["load", "auction-race", "--rate", "fast", "--duration", "1s"],
        ["load", "auction-race", "--rate", "0/s", "--duration", "1s"],
        ["load", "auction-race", "--rate", "5/s", "--duration", "soon"],
        ["load", "auction-race", "--rate", "5/s", "--duration", "0s"],
        ["load", "auction-race", "--vus", "0", "--duration", "1s"],
        ["load", "auction-race", "--duration", "1s"],
        ["load", "auction-race", "--rate", "5/s", "--vus", "2", "--duration", "1s"],
        ["load", "auction-race", "--rate", "5/s", "--duration", "1s", "--threshold", "placeBid.p42<1s"],
    ])
    func badInputExitsTwoWithOneLine(arguments: [String]) throws {
        let result = try CommandLineRunner.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardOutput) \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(arguments): \(result.standardError)")
    }

    @Test(.ciOnly, .tags(.subprocess)) func virtualRunIsReproducibleAndComparesDesigns() throws {
        let folder = try Self.freshFolder()
        let arguments = ["load", "auction-race", "--virtual", "--rate", "100/s", "--duration", "2s", "--seed", "3", "--report-dir", folder.path, "--quiet"]
        let first = try CommandLineRunner.run(arguments)
        #expect(first.status == 0, "\(first.standardOutput) \(first.standardError)")
        let path = folder.appendingPathComponent("auction-race/auction-race-load-virtual-constant-arrival-rate-100ps/report.json")
        let bytes = try Data(contentsOf: path)
        _ = try CommandLineRunner.run(arguments)
        #expect(try Data(contentsOf: path) == bytes, "same seed, same report")
        let report = try Self.reportJSON(folder, scenario: "auction-race", runId: "auction-race-load-virtual-constant-arrival-rate-100ps")
        #expect(report["clock"] as? String == "virtual")
        #expect((report["load"] as? [String: Any])?["iterationsStarted"] as? Int == 200)

        let compare = ["compare", "auction-race", "--variant", "total-pledged-increment", "--rate", "50/s", "--duration", "1s", "--report-dir", folder.path]
        let diff = try CommandLineRunner.run(compare)
        #expect(diff.status == 0, "\(diff.standardOutput) \(diff.standardError)")
        #expect(diff.standardOutput.contains("placeBid.p99"))
        #expect(try CommandLineRunner.run(compare).standardOutput == diff.standardOutput, "a deterministic diff")

        let missed = try CommandLineRunner.run(["load", "like-storm", "--virtual", "--vus", "2", "--stages", "1s:4,1s:0", "--threshold", "like.p50<1ns", "--report-dir", folder.path])
        #expect(missed.status == 1, "\(missed.standardOutput) \(missed.standardError)")
        #expect(missed.standardOutput.contains("threshold like.p50<1ns missed"))
        #expect(missed.standardOutput.contains("replay: rehearse load like-storm --virtual"))
    }
}
