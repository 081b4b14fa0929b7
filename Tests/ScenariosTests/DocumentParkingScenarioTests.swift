import Domain
import FirebaseHarness
import Harness
import Scenarios
import SimulatedFirebase
import RehearsalTestSupport
import Testing

/// Parking idle document actors changes no scenario: every scenario's careful design and first
/// variant, with parking from the fourth live actor on (it never starts at the default threshold
/// in these runs), have the trace, steps, verdict, checks, faults and timeline of the run that
/// never parks.
@Suite struct DocumentParkingScenarioTests {
    init() { BuiltInScenarios.register() }

    @Test(.ciOnly, .tags(.slow)) func everyScenarioRunsTheSameWhenIdleActorsAreParked() throws {
        let small: [String: [String: Int]] = ["heartbeat-timeline": ["users": 12, "hours": 30]]
        var compared = 0
        var parked = 0
        for scenario in BuiltInScenarios.all where scenario.name != "crash-test" {
            for variant in [String?]([nil]) + scenario.variants.prefix(1).map { Optional($0) } {
                for seed in UInt64(1)...2 {
                    var request = RunRequest(scenario: scenario.name, seed: seed, parameters: small[scenario.name] ?? [:], variant: variant)
                    let plain = try ScenarioRunner.run(request).report
                    request.documentParkingThreshold = 4
                    let parkingRun = try ScenarioRunner.execute(request)
                    let parking = parkingRun.report
                    parked += parkingRun.parkedDocumentActors
                    let label = "\(scenario.name) \(variant ?? "careful") seed \(seed)"
                    #expect(parking.traceHash == plain.traceHash, "\(label): parking changed the trace")
                    #expect(parking.steps == plain.steps, "\(label)")
                    #expect(parking.passed == plain.passed && parking.failure == plain.failure, "\(label): parking changed the verdict")
                    #expect(parking.checks == plain.checks, "\(label): parking changed the checks")
                    #expect(parking.faults == plain.faults && parking.timeline == plain.timeline, "\(label)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 60)
        #expect(parked > 1_000, "only \(parked) actors parked: the comparison proves nothing")
    }
}
