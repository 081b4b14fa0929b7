import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase
import Testing

/// seat-contention's releases (`releaseSeat`): a user told the seat is released no longer holds
/// it, one told the release was refused still does. The careful release (a transaction that
/// deletes only this user's reservation) keeps its word when answers are lost; a plain delete,
/// retried after a lost answer, is refused for a seat rebooked meanwhile (or already gone).
@Suite struct SeatReleaseTests {
    init() { BuiltInScenarios.register() }

    /// One seed in a world where a fifth of answers are lost and every holder releases.
    static func run(_ seed: UInt64, _ variant: String?) throws -> RunReport {
        var request = RunRequest(scenario: "seat-contention", seed: seed, parameters: ["releasePercent": 100], variant: variant)
        request.world = World(faults: ["network-timeout": 0.2], outages: [])
        return try ScenarioRunner.run(request).0
    }

    @Test func theCarefulReleaseKeepsItsWordAndThePlainDeleteIsCaught() throws {
        var released = false, caught: [UInt64] = []
        for seed in UInt64(1)...6 {
            let careful = try Self.run(seed, nil)
            #expect(careful.passed, "seed \(seed): \(careful.failure?.message ?? "")")
            released = released || careful.checks.contains { $0.name == "seat-released" && $0.status == .reached }
            let plain = try Self.run(seed, "seat-release-plain-delete")
            if !plain.passed {
                #expect(plain.violation?.check == "release-answer-true", "seed \(seed): \(plain.violation?.check ?? "none")")
                caught.append(seed)
            }
        }
        #expect(released, "no seat was ever released")
        #expect(caught.count >= 3, "caught on \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == "seat-release-plain-delete" && $0.scenario == "seat-contention" })
    }

    /// Without releases nothing catches the plain delete: the check judges the release's answer.
    @Test func withoutReleasesThePlainDeleteIsNeverCalled() throws {
        for seed in UInt64(1)...3 {
            var request = RunRequest(scenario: "seat-contention", seed: seed, parameters: ["releasePercent": 0], variant: "seat-release-plain-delete")
            request.world = World(faults: ["network-timeout": 0.2], outages: [])
            let report = try ScenarioRunner.run(request).0
            #expect(report.passed, "seed \(seed): \(report.failure?.message ?? "")")
            #expect(!report.latency.contains { $0.operation == "releaseSeat" && $0.count > 0 })
        }
    }
}
