import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// auction-race with name changes (`renamePercent`): the careful `onUserUpdate` leaves every bid
/// with its bidder's latest name; the literal read-then-write is caught; the default (no
/// renames) does not deploy the function.
@Suite(.serialized) struct KNBUserUpdateScenarioTests {
    init() { BuiltInScenarios.register() }

    static let renames = ["renamePercent": 50]

    @Test func carefulPropagationPassesAndIsChecked() throws {
        for seed in UInt64(1)...6 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "auction-race", seed: seed, parameters: Self.renames))
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            let check = report.checks.first { $0.name == "bidder-names-current" }
            #expect(check?.status == .passed && (check?.observations ?? 0) > 0, "seed \(seed): \(String(describing: check))")
        }
    }

    @Test func readThenWriteIsCaught() throws {
        let caught = try caughtSeeds("auction-race", variant: "user-update-read-then-write", parameters: Self.renames,
                                     strategy: .random, seeds: 1...20, enough: 2)
        #expect(caught.count >= 2, "user-update-read-then-write caught on \(caught) of seeds 1…20")
    }

    /// The literal read-then-write is a latency-window race, not a decision race: the
    /// non-preemptive schedule (no decision at all) already fails some seeds (docs/zoo.md).
    @Test func readThenWriteFailsWithoutAnyDecision() throws {
        let bug = try #require(BugZoo.bugs.first { $0.variant == "user-update-read-then-write" })
        #expect(bug.needs == "depth-2+function" && bug.parameters["renamePercent"] == "50")
        let caught = try caughtSeeds("auction-race", variant: bug.variant, parameters: Self.renames,
                                     strategy: .nonpreemptive, seeds: 1...20, enough: 1)
        #expect(!caught.isEmpty, "non-preemptive caught nothing in seeds 1…20")
    }

    @Test func namesCheckUnreachableWithoutRenames() throws {
        let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "auction-race", seed: 1))
        #expect(report.passed)
        let check = report.checks.first { $0.name == "bidder-names-current" }
        #expect((check?.observations ?? 0) == 0, "\(String(describing: check))")
    }
}
