@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import Testing

/// Stories are causal (issue: like-storm seed 59's story was eight like/unlike lines): a story
/// keeps only the operations the violated check declares, on the entity it names, with the
/// backend's faults, in at most `FailureStory.maxLines` lines.
@Suite struct FailureStoryTests {
    init() { BuiltInScenarios.register() }

    /// One planted bug per scenario whose checks declare operations (debug-cheap parameters).
    static let cases: [(scenario: String, variant: String, parameters: [String: Int])] = [
        ("auction-race", "outbid-self-notify", [:]),
        ("stamp-collect", "increment-collectors", [:]),
        ("privacy-access", "like-without-transaction", [:]),
        ("nudge-storm", "client-tap-guard-only", [:]),
        ("heartbeat-timeline", "no-heartbeat-recheck", ["users": 30, "hours": 40]),
    ]

    @Test(arguments: 0..<cases.count)
    func storiesKeepTheViolatedChecksOperations(_ index: Int) throws {
        let (scenario, variant, parameters) = Self.cases[index]
        let failed = try #require((1...40 as ClosedRange<UInt64>).lazy.compactMap { seed -> (RunRequest, ScenarioRunner.Execution)? in
            let request = RunRequest(scenario: scenario, seed: seed, parameters: parameters, variant: variant, swarm: SwarmConfiguration.draw(seed: seed))
            guard let execution = try? ScenarioRunner.execute(request), !execution.report.passed else { return nil }
            return (request, execution)
        }.first, "\(variant) failed on none of seeds 1…40")
        let artifact = FailureArtifact(failed: failed.1, request: failed.0)
        let violation = try #require(artifact.violation)
        let declared = try #require(try ScenarioRegistry.scenario(named: scenario).checks.first { $0.name == violation.check })
        #expect(!declared.operations.isEmpty, "\(scenario) \(violation.check) declares no operations")
        #expect(artifact.story.count <= FailureStory.maxLines && artifact.story.count >= 2, "\(artifact.story)")
        #expect(artifact.story.last!.contains("VIOLATED \(violation.check)"))
        for line in artifact.story.dropLast() {
            // "t=1.000000s user: event"
            let afterTime = line.drop { $0 != " " }.dropFirst()
            guard let colon = afterTime.range(of: ": ") else { Issue.record("unparsable story line \(line)"); continue }
            let user = afterTime[..<colon.lowerBound], event = String(afterTime[colon.upperBound...])
            if user == FailureStory.backendUser { continue }
            #expect(declared.operations.contains { event == $0 || event.hasPrefix($0 + " ") },
                    "\(variant): story line '\(line)' is not one of \(violation.check)'s operations \(declared.operations)")
        }
    }

    @Test func operationsMatchWholeLeadingWords() {
        let timeline = [
            TimelineEntry(user: "u1", timeNanoseconds: 1, event: "double-tap like p1"),
            TimelineEntry(user: "u1", timeNanoseconds: 2, event: "double-tap collect s1"),
            TimelineEntry(user: "u2", timeNanoseconds: 3, event: "collector s1"),
            TimelineEntry(user: "u2", timeNanoseconds: 4, event: "collect s1"),
        ]
        let violation = InvariantViolation(check: "c", kind: .always, message: "s1 wrong", step: 9, virtualNanoseconds: 5)
        let story = FailureStory.lines(timeline: timeline, violation: violation, failure: nil, operations: ["collect", "double-tap collect"])
        #expect(story.count == 3)
        #expect(story[0].hasSuffix("u1: double-tap collect s1") && story[1].hasSuffix("u2: collect s1"), "\(story)")
    }
}
