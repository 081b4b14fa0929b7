import Domain
import Sim
import SimulatedFirebase

/// Runs `body` on the simulator (one thread, seeded choices, virtual time that jumps to the next
/// timer) with a `DomainEnvironment` built from the running simulation, and returns its output.
///
/// `JumpClock` wakes every sleeper at once, so it cannot order concurrent deliveries; behaviours
/// that are about order in time (trigger reordering, scheduler jitter, a write landing inside a
/// function) are measured here instead. The environment mirrors `Scenarios.SimulatedEnvironment`
/// (DomainTests does not depend on Scenarios). `timingWindow` defaults to the runner's default,
/// the backend's `concurrencyWindow`, so the suite measures what scenario runs see.
func onSimulator<Output: Sendable>(
    seed: UInt64, timingWindow: Duration = BackendFaults.default.concurrencyWindow,
    _ body: @escaping @Sendable (DomainEnvironment) async throws -> Output
) throws -> Output {
    let configuration = SimulationConfiguration(
        seed: seed, timingWindowNanoseconds: UInt64(timingWindow.nanoseconds))
    let result = Simulation.run(configuration) {
        let clock = SimClock()
        let env = DomainEnvironment(
            clock: DomainClock(clock, epochUnixNanoseconds: clock.unixNanoseconds(at: clock.now)),
            executors: TestSimExecutors(), random: TestSimStreams(streams: Simulation.streams))
        return try await body(env)
    }
    guard result.outcome == .finished, let output = result.output else {
        throw SimulatedRunFailed(description: "seed \(seed): the simulation ended \(result.outcome)")
    }
    return output
}

/// A simulation that did not finish (deadlock, limit, escape): the conformance test cannot measure.
struct SimulatedRunFailed: Error, CustomStringConvertible {
    let description: String
}

/// One `SimExecutor` per domain actor, so every hop is a scheduling point.
private struct TestSimExecutors: ActorExecutorSource {
    func makeExecutor(label: String) -> any SerialExecutor { SimExecutor(label) }
    var taskExecutor: (any TaskExecutor)? { Simulation.taskExecutor }
}

/// The simulation's named random streams as the domain's `RandomSource`.
private struct TestSimStreams: RandomSource {
    let streams: RandomStreams
    func stream(named name: String) -> any RandomNumberGenerator { streams.stream(named: name) }
}
