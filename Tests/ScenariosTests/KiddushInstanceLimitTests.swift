import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase
import Testing

/// kiddush-booking with the booking email serialized by `maxInstances: 1` (`kiddush-one-instance`,
/// MODEL_RULES §21): in a world of duplicate events the limit makes a duplicate queue and find the
/// mark, so the design passes while the platform holds the limit; when a surge starts an instance
/// past it (`instance-overshoot`) both invocations send. The careful claim passes either way.
@Suite struct KiddushInstanceLimitTests {
    init() { BuiltInScenarios.register() }

    /// The outcome of seeds 1…40 of `variant` (nil: the careful design) in a world of duplicates with `overshoot`.
    static func run(_ variant: String?, overshoot: Double) throws -> (failed: [UInt64], checks: Set<String>, queued: Int) {
        var failed: [UInt64] = [], checks = Set<String>(), queued = 0
        for seed in UInt64(1)...40 {
            var request = RunRequest(scenario: "kiddush-booking", seed: seed, strategy: .random, variant: variant)
            request.world = World(faults: ["trigger-duplicate": 0.2, "instance-overshoot": overshoot])
            let (report, _) = try ScenarioRunner.run(request)
            queued += report.faults?.first { $0.kind.rawValue == "instance-queue-wait" }?.observed ?? 0
            guard !report.passed else { continue }
            failed.append(seed)
            checks.insert(report.violation?.check ?? report.failure?.message ?? "?")
        }
        return (failed, checks, queued)
    }

    @Test func theLimitSerializesUntilASurgeStartsASecondInstance() throws {
        let held = try Self.run("kiddush-one-instance", overshoot: 0)
        #expect(held.failed.isEmpty, "failed on \(held.failed): \(held.checks)")
        #expect(held.queued > 0, "no duplicate ever queued behind its original")
        let surge = try Self.run("kiddush-one-instance", overshoot: 0.5)
        #expect(surge.failed.count >= 2, "caught on \(surge.failed)")
        #expect(surge.checks == ["one-email-per-booking"])
        let careful = try Self.run(nil, overshoot: 0.5)
        #expect(careful.failed.isEmpty, "failed on \(careful.failed): \(careful.checks)")
    }
}
