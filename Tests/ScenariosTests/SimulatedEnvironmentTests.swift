import Domain
import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// The environment scenario runs hand the domain: the backend's background tasks prefer the
/// simulator's task executor, and the direct-sleep clock behaves as `DomainClock(SimClock(), …)`.
@Suite struct SimulatedEnvironmentTests {
    init() { BuiltInScenarios.register() }

    @Test func theBackendsBackgroundTasksPreferTheSimulatorsTaskExecutor() {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) { () async -> [Bool] in
            let env = SimulatedEnvironment.current()
            let same = (env.taskExecutor as AnyObject?) === (Simulation.taskExecutor as AnyObject?)
            return [env.taskExecutor != nil, same, Backend(env: env).tracker.prefersTaskExecutor]
        }
        #expect(result.output == [true, true, true])
        #expect(Backend(env: .realRuntime(seed: 1, epochUnixNanoseconds: 0)).tracker.prefersTaskExecutor == false)
    }

    /// Durations that exercise the edges: zero and negative (no sleep), under a nanosecond (a
    /// yield), ordinary ones, and one past 292 years (a wrapped deadline, hence a yield).
    static let durations: [Duration] = [
        .zero, .nanoseconds(-5), .nanoseconds(1) / 2, .nanoseconds(1), .milliseconds(3), .seconds(2),
        .zero, .microseconds(7), .seconds(Int64.max / 2), .milliseconds(1),
    ]

    /// Two tasks sleeping the same durations through `clock`, interleaved by the seed; what each
    /// read after each sleep, and the run's trace.
    static func run(seed: UInt64, direct: Bool) -> (log: [String], trace: TraceHash, steps: UInt64) {
        let result = Simulation.run(SimulationConfiguration(seed: seed, strategy: .random)) { () async -> [String] in
            let clock = direct
                ? SimulatedEnvironment.domainClock(epochUnixNanoseconds: 1_000)
                : DomainClock(SimClock(), epochUnixNanoseconds: 1_000)
            return await withTaskGroup(of: [String].self) { group in
                for task in 0..<2 {
                    group.addTask {
                        var log: [String] = []
                        for (index, duration) in durations.enumerated() {
                            try? await clock.sleep(for: duration)
                            log.append("t\(task) #\(index) \(clock.elapsedNanoseconds) \(clock.nowUnixNanoseconds)")
                        }
                        return log
                    }
                }
                var all: [String] = []
                for await log in group { all += log }
                return all
            }
        }
        return (result.output ?? ["ended \(result.outcome)"], result.traceHash, result.steps)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theDirectSleepClockMatchesTheGenericOne(seed: UInt64) {
        let generic = Self.run(seed: seed, direct: false)
        let direct = Self.run(seed: seed, direct: true)
        #expect(direct.log == generic.log)
        #expect(direct.log.count == 2 * Self.durations.count)
        // Root-task children prefer the simulator's executor, so the generic layers cost no step.
        #expect(direct.trace == generic.trace && direct.steps == generic.steps)
    }
}
