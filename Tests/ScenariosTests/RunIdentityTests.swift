@testable import FirebaseHarness
import Foundation
@testable import Harness
@testable import Scenarios
import Sim
import Testing

/// One `RunIdentity` is stored in reports and artifacts; their JSON keeps the keys it had before
/// (`scenario`, `seed`, `strategy`, `variant`, `parameters`, `swarm` at the top level), so the
/// committed example reports and old artifacts still read and replay.
@Suite struct RunIdentityTests {
    init() { BuiltInScenarios.register() }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func topLevel(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static let identityKeys: Set<String> = ["scenario", "seed", "strategy", "variant", "parameters", "swarm"]

    @Test func committedExampleReportsReadAndWriteTheSameKeys() throws {
        let examples = Self.root.appendingPathComponent("reports/examples")
        let files = try #require(FileManager.default.enumerator(atPath: examples.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix("report.json") }.sorted()
        #expect(files.count >= 9)
        for file in files {
            let data = try Data(contentsOf: examples.appendingPathComponent(file))
            let report = try JSONDecoder().decode(RunReport.self, from: data)
            let original = try Self.topLevel(data)
            #expect(report.scenario == original["scenario"] as? String, "\(file)")
            #expect(report.seed == (original["seed"] as? NSNumber)?.uint64Value, "\(file)")
            #expect(report.strategy == original["strategy"] as? String, "\(file)")
            #expect(report.variant == original["variant"] as? String, "\(file)")
            #expect(report.parameters == original["parameters"] as? [String: Int], "\(file)")
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let written = try Self.topLevel(try encoder.encode(report))
            #expect(Set(written.keys) == Set(original.keys), "\(file): keys \(Set(written.keys).symmetricDifference(original.keys))")
            #expect(written["identity"] == nil)
            // The replay request rebuilt from the file runs the same identity.
            let request = try ScenarioRunner.request(replaying: report)
            #expect(request.scenario == report.scenario && request.seed == report.seed && request.variant == report.variant)
            #expect(request.strategy.description == report.strategy)
        }
    }

    @Test func anArtifactsJSONKeepsTheIdentityKeysAtTheTopAndRoundTrips() throws {
        let build = BuildFingerprint(commit: "test")
        let identity = RunIdentity(
            scenario: "seat-contention", seed: 7, strategy: "pct:2:40", variant: "seat-random-id", parameters: ["users": 4],
            swarm: SwarmConfiguration.draw(seed: 7))
        let artifact = FailureArtifact(
            kind: .invariant, identity: identity, decisions: [0, 1, 0], violation: nil, message: "m", build: build, story: ["m"],
            timingWindowNanoseconds: 5)
        let data = Data(artifact.json().utf8)
        let object = try Self.topLevel(data)
        #expect(Self.identityKeys.isSubset(of: Set(object.keys)))
        #expect(object["identity"] == nil)
        #expect(object["strategy"] as? String == "pct:2:40")
        let read = try #require(try FailureArtifact.decode(data))
        #expect(read == artifact)
        #expect(read.fileName == "seat-contention-s7-pct-2-40-seat-random-id.json")
        let replay = try read.replayRequest(gitCommit: nil)
        #expect(replay.strategy == .pct(depth: 2, horizon: 40) && replay.decisions == [0, 1, 0] && replay.swarm == identity.swarm)
        #expect(replay.runId == "seat-contention-s7-pct-2-40-seat-random-id")
    }

    @Test func anArtifactWithoutSwarmOrVariantOmitsThoseKeys() throws {
        let artifact = FailureArtifact(
            kind: .crash, identity: RunIdentity(scenario: "auction-race", seed: 3, strategy: "random"), decisions: [],
            violation: nil, message: "died", signal: 6, build: BuildFingerprint(commit: "test"), story: ["died"])
        let object = try Self.topLevel(Data(artifact.json().utf8))
        #expect(object["swarm"] == nil && object["variant"] == nil)
        #expect(object["parameters"] as? [String: Int] == [:])
        #expect(artifact.identity.commandLine(timingWindowNanoseconds: 0).description
            == "rehearse run auction-race --seed 3 --strategy random --timing-window 0ns")
    }

    @Test func aSweepsSeedIdentityDrawsThatSeedsSwarm() throws {
        let runner = try SweepRunner(template: RunRequest(scenario: "seat-contention", seed: 0, strategy: .random), swarm: true, failureDirectory: nil)
        let result = try runner.emptyResult(range: SeedRange(low: 1, high: 4), shard: nil, build: BuildFingerprint(commit: "test"))
        let identity = result.identity(seed: 3)
        #expect(identity.swarm == SwarmConfiguration.draw(seed: 3))
        #expect(runner.request(seed: 3).identity.swarm == identity.swarm)
        #expect(result.runCommandLine(seed: 3).description.hasSuffix("--swarm"))
    }
}
