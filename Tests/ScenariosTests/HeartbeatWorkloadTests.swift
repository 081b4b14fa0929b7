import Domain
import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// The heartbeat timeline used by `rehearse bench` and the benchmarks: its events are fixed by
/// the plan (heartbeats on odd minutes, scheduled functions on even ones), so every correct
/// driver and every interleaving gives the same outcome.
@Suite struct HeartbeatWorkloadTests {
    init() { BuiltInScenarios.register() }

    @Test func sameOutcomeUnderFIFOAndRandomSchedulesAndRepeatsExactly() {
        let plan = HeartbeatWorkload.Plan(users: 120, hours: 72, deviceTasks: 4)
        let fifo = HeartbeatWorkload.simulate(plan, seed: 1, strategy: .fifo)
        let again = HeartbeatWorkload.simulate(plan, seed: 1, strategy: .fifo)
        let random = HeartbeatWorkload.simulate(plan, seed: 7, strategy: .random)
        #expect(fifo.simulationOutcome == .finished)
        #expect(fifo.outcome != nil)
        #expect(fifo.outcome == random.outcome)
        #expect(fifo.traceHash == again.traceHash)
        #expect(fifo.virtualNanoseconds == 72 * 3_600 * 1_000_000_000)
    }

    @Test func missingUsersGetAlertsAndCheckingInUsersGetCancellations() throws {
        let plan = HeartbeatWorkload.Plan(users: 120)
        let outcome = try #require(HeartbeatWorkload.simulate(plan).outcome)
        let missing = (0..<plan.users).filter { $0 % plan.missingEvery == 0 }.count
        // Every user who never checks in reaches their threshold within 72 h: one email each.
        #expect(outcome.emailAlerts >= missing)
        #expect(outcome.checkRuns == 144)
        #expect(outcome.senderRuns == 72 * 30)
        #expect(outcome.cancelledAlerts > 0)
        #expect(outcome.sentAlerts == outcome.pushesDelivered + outcome.emailsDelivered)
        #expect(outcome.heartbeatsRejected == 0)
    }
}
