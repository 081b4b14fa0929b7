import Sim
import Testing

/// `SimClock.sleep(positive:)` (the domain clock's sleep) is `nonisolated(nonsending)`: called
/// from an actor it registers its timer without leaving the actor, so a sleeping actor costs one
/// scheduler step less per sleep than through a plain nonisolated function, which hops off the
/// actor first.
@Suite struct NonisolatedStepsTests {
    /// A plain nonisolated async function: it runs on the generic executor, off the caller's actor.
    private static func hoppingSleep() async throws {
        try await SimClock.sleep(positive: .milliseconds(1))
    }

    private actor Sleeper: SimActor {
        nonisolated let simExecutor = SimExecutor("sleeper")
        func sleep(times: Int, hopping: Bool) async throws {
            for _ in 0..<times {
                if hopping {
                    try await NonisolatedStepsTests.hoppingSleep()
                } else {
                    try await SimClock.sleep(positive: .milliseconds(1))
                }
            }
        }
    }

    /// Steps of a run in which an actor sleeps `times` times.
    private static func steps(times: Int, hopping: Bool) throws -> UInt64 {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) {
            try await Sleeper().sleep(times: times, hopping: hopping)
        }
        #expect(result.outcome == .finished)
        return result.steps
    }

    @Test func aSleepFromAnActorStaysOnTheActor() throws {
        let direct = try Self.steps(times: 20, hopping: false) - Self.steps(times: 10, hopping: false)
        let hopping = try Self.steps(times: 20, hopping: true) - Self.steps(times: 10, hopping: true)
        // The wake-up (the continuation resumes off the actor) and the return to the actor.
        #expect(direct == 20)
        // The same plus the hop off the actor before the sleep.
        #expect(hopping == 30)
    }
}
