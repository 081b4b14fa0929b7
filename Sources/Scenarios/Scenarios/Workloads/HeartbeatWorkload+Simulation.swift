import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

extension HeartbeatWorkload {
    /// What one simulated timeline run produced, with the kernel's counters.
    public struct SimulatedRun: Sendable {
        /// What the timeline produced, nil if the run did not finish.
        public var outcome: Outcome?
        /// How the simulation ended.
        public var simulationOutcome: SimulationOutcome
        /// Jobs the kernel ran.
        public var steps: UInt64
        /// Virtual time the run took.
        public var virtualNanoseconds: UInt64
        /// The run's trace hash.
        public var traceHash: TraceHash
    }

    /// Runs `plan` on the simulator (FIFO by default: the same events as any correct driver).
    public static func simulate(_ plan: Plan, seed: UInt64 = 1, strategy: SchedulingStrategy = .fifo) -> SimulatedRun {
        var configuration = SimulationConfiguration(seed: seed, strategy: strategy)
        configuration.limits.maxSteps = UInt64.max
        let result = Simulation.run(configuration) {
            let timeline = HeartbeatWorkload(plan: plan, environment: SimulatedEnvironment.current())
            await timeline.register()
            return await timeline.run()
        }
        return SimulatedRun(
            outcome: result.output, simulationOutcome: result.outcome, steps: result.steps,
            virtualNanoseconds: result.virtualNanoseconds, traceHash: result.traceHash)
    }
}
