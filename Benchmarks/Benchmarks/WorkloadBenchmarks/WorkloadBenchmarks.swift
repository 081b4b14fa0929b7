import Benchmark
import Scenarios
import Sim

// Steps/s of the workloads that exist on this branch: the kernel's auction race (one seed per
// operation) and the SafeNSound 72-hour heartbeat timeline. (The `Scenarios` registry is not on
// this branch yet; add one benchmark per registered scenario when it lands.)

let timeTolerance = BenchmarkThresholds(relative: [.p50: 35.0])
let mallocTolerance = BenchmarkThresholds(relative: [.p50: 2.0], absolute: [.p50: 2])

let benchmarks: @Sendable () -> Void = {
    Benchmark(
        "workload: auction race seed (50 bidders, random)",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 2, scalingFactor: .one,
            maxDuration: .seconds(2), maxIterations: 500,
            thresholds: [.wallClock: timeTolerance, .throughput: timeTolerance, .mallocCountTotal: mallocTolerance])
    ) { benchmark in
        for seed in benchmark.scaledIterations {
            let result = Simulation.run(SimulationConfiguration(seed: UInt64(seed), strategy: .random)) {
                try await KernelWorkload.auctionRace(bidders: 50)
            }
            blackHole(result.traceHash)
        }
    }

    Benchmark(
        "workload: SafeNSound 72 h timeline, 1000 users",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .custom("steps", polarity: .prefersLarger, useScalingFactor: false)],
            warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20,
            thresholds: [.wallClock: timeTolerance, .mallocCountTotal: mallocTolerance])
    ) { benchmark in
        let run = HeartbeatTimeline.simulate(HeartbeatTimeline.Plan(users: 1_000))
        precondition(run.outcome != nil, "the timeline did not finish: \(run.simulationOutcome)")
        benchmark.measurement(.custom("steps", polarity: .prefersLarger, useScalingFactor: false), Int(run.steps))
    }
}
