import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// like-storm's notification and post-delete checks: the careful design passes
/// them with observations, and each literal-design variant is caught by its own check.
@Suite struct LikeStormFeedTests {
    init() { BuiltInScenarios.register() }

    @Test func carefulFeedPassesTheNotificationAndDeleteChecks() throws {
        for seed in UInt64(1)...3 {
            let (report, _) = try ScenarioRunner.run(RunRequest(scenario: "like-storm", seed: seed))
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            for name in ["like-notified-once-per-liker", "every-like-notified", "reply-notified-once", "every-reply-notified",
                         "no-orphan-reply", "deleted-post-stays-deleted"] {
                let check = report.checks.first { $0.name == name }
                #expect(check?.status == .passed && (check?.observations ?? 0) > 0, "seed \(seed) \(name): \(String(describing: check))")
            }
        }
    }

    @Test(arguments: [
        ("like-notify-per-event", [String: Int](), "like-notified-once-per-liker"),
        // No duplicate events at all: a re-like after an unlike is enough to notify twice.
        ("like-notify-per-event", ["duplicatePercent": 0], "like-notified-once-per-liker"),
        ("reply-cascade-query-only", [:], "no-orphan-reply"),
    ])
    func literalDesignIsCaughtByItsCheck(variant: String, parameters: [String: Int], check: String) throws {
        let caught = try caughtSeeds("like-storm", variant: variant, parameters: parameters, strategy: .random, seeds: 1...3)
        #expect(caught.count == 3, "\(variant) \(parameters): caught on \(caught.map(\.seed))")
        #expect(caught.allSatisfy { $0.check == check }, "\(variant): \(caught)")
    }

    @Test func moreDeletesThanPostsIsRefused() {
        #expect(throws: ScenarioError.self) {
            _ = try ScenarioRunner.prepare(RunRequest(scenario: "like-storm", seed: 1, parameters: ["posts": 2, "postDeletes": 3]))
        }
    }
}
