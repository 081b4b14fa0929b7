import FirebaseHarness
import Foundation
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import RehearsalTestSupport
import Testing

@Suite struct FuzzTests {
    init() { BuiltInScenarios.register() }

    @Test func shardsAreDisjointAndCoverTheRange() {
        let whole = SeedRange(low: 7, high: 107)
        for count in 1...9 {
            let shards = (0..<count).map { whole.shard($0, of: count) }
            #expect(shards.flatMap(\.seeds) == whole.seeds, "shards of \(count) must cover 7..<107 once, in order")
            for (a, b) in zip(shards, shards.dropFirst()) { #expect(a.high == b.low) }
        }
    }

    @Test func swarmIsAPureFunctionOfTheSeed() {
        let drawn = (1...40).map { SwarmConfiguration.draw(seed: $0) }
        #expect(drawn == (1...40).map { SwarmConfiguration.draw(seed: $0) })
        #expect(Set(drawn.map(\.enabledKinds)).count > 10, "seeds should differ in which kinds are on")
        let swarm = drawn.first { !$0.enabledKinds.isEmpty }!
        let kind = swarm.enabledKinds[0]
        #expect(!swarm.without(kind).enabledKinds.contains(kind))
        let faults = SwarmConfiguration(rates: [String: Double]()).apply(to: .default)
        #expect(faults.triggerDuplicateProbability == 0 && faults.networkFailureProbability == 0)
    }

    @Test func determinismSampleIsAboutFivePercent() {
        let sampled = (1...2_000 as ClosedRange<UInt64>).filter { SweepRunner.isDeterminismSample($0, every: 20) }.count
        #expect(sampled > 60 && sampled < 140, "sampled \(sampled) of 2000")
        #expect(!SweepRunner.isDeterminismSample(1, every: 0))
    }

    @Test func shrunkArtifactReplaysExactlyWithAShortStory() throws {
        // The first failing seed (which one moves with the model's timing; the variant fails often).
        let candidates = (1...20 as ClosedRange<UInt64>).map { seed in
            RunRequest(scenario: "auction-race", seed: seed, strategy: .pct(depth: 3, horizon: 2_000),
                       variant: "buy-now-outside-transaction", swarm: SwarmConfiguration.draw(seed: seed))
        }
        let request = try #require(candidates.first { (try? ScenarioRunner.execute($0).report.passed) == false })
        let shrunk = try FailureShrinker.shrink(request, maxRuns: 80)
        let artifact = shrunk.artifact
        #expect(artifact.shrink!.preemptionsAfter <= artifact.shrink!.preemptionsBefore)
        #expect(artifact.parameters != artifact.shrink!.parametersBefore || artifact.shrink!.preemptionsAfter < artifact.shrink!.preemptionsBefore,
                "shrinking removed parameters or preemptions")
        #expect(artifact.story.count <= FailureStory.maxLines)
        #expect(artifact.story.last!.contains("VIOLATED \(artifact.violation!.check)"))
        // Through JSON and back, then replayed through its decisions log.
        let decoded = try #require(try FailureArtifact.decode(Data(artifact.json().utf8)))
        #expect(decoded == artifact)
        let replay = try ScenarioRunner.execute(try decoded.replayRequest(gitCommit: nil))
        #expect(replay.report.violation?.check == artifact.violation?.check)
        #expect(replay.report.violation?.step == artifact.violation?.step)
    }

    @Test func mergedShardsEqualOneMachine() throws {
        let template = RunRequest(scenario: "like-storm", seed: 1, parameters: ["users": 2, "actionsPerUser": 3], variant: "unlike-nonliker-decrements")
        let runner = try SweepRunner(template: template, swarm: true, determinismEvery: 3, failureDirectory: nil)
        let whole = SeedRange(low: 1, high: 10)
        let build = BuildFingerprint(commit: "test")
        func sweep(_ range: SeedRange, shard: String?) throws -> SweepResult {
            var result = try runner.emptyResult(range: range, shard: shard, build: build)
            for seed in range.seeds { result.add(try runner.run(seed: seed).result) }
            return result
        }
        let single = try sweep(whole, shard: nil)
        let merged = try SweepResult.merge((0..<3).map { try sweep(whole.shard($0, of: 3), shard: "\($0)/3") })
        #expect(single.failures.count > 0 && single.seedsRun == 9)
        // Byte for byte, histograms included: their compressed encoding depends on the
        // distribution, not on the auto-resized array the order of adds left behind.
        #expect(merged.json() == single.json())
        #expect(merged.latency.map(\.operation) == single.latency.map(\.operation))
        for (a, b) in zip(merged.latency, single.latency) {
            let same = a.count == b.count && a.maxMicroseconds == b.maxMicroseconds
                && stride(from: 1.0, through: 100.0, by: 1.0).allSatisfy { a.histogram.valueAtPercentile($0) == b.histogram.valueAtPercentile($0) }
            #expect(same, "latency of \(a.operation) differs after merging")
        }
        #expect(throws: SweepResult.MergeError.self) { try SweepResult.merge([single, single]) }
    }
}

/// Every raw artifact of a sweep replays at its step, the random strategy's included (its
/// choices depend on the seed's swarm, which the artifact carries).
@Suite struct RawArtifactReplayTests {
    init() { BuiltInScenarios.register() }

    private func replayEveryArtifact(_ template: RunRequest, seeds: SeedRange) throws -> (artifacts: Int, reproduced: Int) {
        let runner = try SweepRunner(template: template, swarm: true, determinismEvery: 0, failureDirectory: nil)
        var artifacts = 0, reproduced = 0
        for seed in seeds.seeds {
            guard let artifact = try runner.run(seed: seed).artifact else { continue }
            artifacts += 1
            let decoded = try #require(try FailureArtifact.decode(Data(artifact.json().utf8)))
            let replay = try ScenarioRunner.execute(try decoded.replayRequest(gitCommit: "replay"))
            let same = replay.report.violation?.check == artifact.violation?.check && replay.report.violation?.step == artifact.violation?.step
            if same { reproduced += 1 }
            #expect(same, "seed \(seed): expected \(artifact.expectation), got \(replay.report.violation.map { "\($0.check) at step \($0.step)" } ?? "a pass")")
        }
        return (artifacts, reproduced)
    }

    @Test func auctionRaceOutbidSelfNotifyReplaysEveryRawArtifact() throws {
        let template = RunRequest(scenario: "auction-race", seed: 1, variant: "outbid-self-notify")
        let outcome = try replayEveryArtifact(template, seeds: SeedRange(low: 1, high: 41))
        #expect(outcome.artifacts >= 10)
        #expect(outcome.reproduced == outcome.artifacts)
    }

    @Test(.ciOnly, .tags(.slow)) func heartbeatTimelineRandomAlertIdReplaysEveryRawArtifact() throws {
        let template = RunRequest(scenario: "heartbeat-timeline", seed: 1, parameters: ["users": 20], variant: "random-alert-id")
        let outcome = try replayEveryArtifact(template, seeds: SeedRange(low: 1, high: 6))
        #expect(outcome.artifacts >= 3)
        #expect(outcome.reproduced == outcome.artifacts)
    }
}
