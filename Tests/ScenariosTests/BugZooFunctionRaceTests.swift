import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// `reply-count-read-then-write`: a race inside a Cloud Function across admin-SDK round trips
/// (another reply's `onPostReplyCreate` lands between this one's read of the parent and its
/// write). The latency draws open that window by themselves, so the non-preemptive schedule
/// finds it as often as random does (docs/zoo.md): it is in the zoo as a depth-2 bug, not as a
/// decision bug, and these tests pin both halves of that claim.
@Suite(.serialized) struct BugZooFunctionRaceTests {
    init() { BuiltInScenarios.register() }

    static let variant = "reply-count-read-then-write"

    static func request(seed: UInt64, strategy: SchedulingStrategy, variant: String?) throws -> RunRequest {
        let bug = try #require(BugZoo.bugs.first { $0.variant == Self.variant })
        var request = RunRequest(scenario: bug.scenario, seed: seed, parameters: bug.parameters.compactMapValues(Int.init), variant: variant)
        request.strategy = strategy
        return request
    }

    /// Without any decision (the non-preemptive schedule) some of seeds 1…20 lose a reply
    /// count, and the careful design (a marker and the count in one server transaction) passes
    /// those same seeds: the failure is the read-then-write's, found by the latency draws.
    @Test func losesAReplyCountWithoutAnyDecision() throws {
        let bug = try #require(BugZoo.bugs.first { $0.variant == Self.variant })
        #expect(bug.needs == "depth-2+function")
        #expect(!bug.needs.hasPrefix("decision:"))
        var failing: [UInt64] = []
        for seed in UInt64(1)...20 {
            let (report, _) = try ScenarioRunner.run(Self.request(seed: seed, strategy: .nonpreemptive, variant: Self.variant))
            guard let violation = report.violation else { continue }
            #expect(violation.check == "reply-count-matches-replies", "seed \(seed): \(violation.check)")
            failing.append(seed)
        }
        #expect(!failing.isEmpty, "no seed of 1…20 lost a reply count without a decision")
        for seed in failing.prefix(3) {
            let (careful, _) = try ScenarioRunner.run(Self.request(seed: seed, strategy: .nonpreemptive, variant: nil))
            #expect(careful.passed, "careful design fails seed \(seed): \(careful.failure?.message ?? "")")
        }
    }
}
