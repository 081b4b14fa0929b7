import Benchmark
import Harness
import KernelWorkloads
import Scenarios
import Sim

// Steps/s of every registered scenario (one seed per iteration, report included), of the
// kernel's auction race and of the SafeNSound 72-hour heartbeat timeline.

var timeTolerance: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 300.0, .p90: 300.0]) }
var mallocTolerance: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 5.0, .p90: 5.0]) }
/// Steps per seed move with every optimizer change (the optimizer merges or drops actor hops), so
/// they get a band, not an exact value: 25 % catches an extra hop per operation, not binary noise.
var stepsTolerance: BenchmarkThresholds { BenchmarkThresholds(relative: [.p50: 25.0, .p90: 25.0]) }

let stepsMetric = BenchmarkMetric.custom("steps", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    BuiltInScenarios.register()
    for scenario in ScenarioRegistry.all {
        Benchmark(
            "scenario:\(scenario.name)-seed-(defaults,random)",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, stepsMetric], warmupIterations: 1, scalingFactor: .one,
                maxDuration: .seconds(2), maxIterations: 100,
                thresholds: [.wallClock: timeTolerance, .mallocCountTotal: mallocTolerance, stepsMetric: stepsTolerance])
        ) { benchmark in
            var seed: UInt64 = 0
            for _ in benchmark.scaledIterations {
                seed += 1
                let (report, _) = try ScenarioRunner.run(RunRequest(scenario: scenario.name, seed: seed, strategy: .random))
                benchmark.measurement(stepsMetric, Int(report.steps))
            }
        }
    }

    Benchmark(
        "workload:auction-race-seed-(50-bidders,random)",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal], warmupIterations: 2, scalingFactor: .one,
            maxDuration: .seconds(2), maxIterations: 500,
            thresholds: [.wallClock: timeTolerance, .mallocCountTotal: mallocTolerance])
    ) { benchmark in
        for seed in benchmark.scaledIterations {
            let result = Simulation.run(SimulationConfiguration(seed: UInt64(seed), strategy: .random)) {
                try await KernelWorkload.auctionRace(bidders: 50)
            }
            blackHole(result.traceHash)
        }
    }

    Benchmark(
        "workload:SafeNSound-72-h-timeline,1000-users",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, stepsMetric],
            warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(3), maxIterations: 20,
            thresholds: [.wallClock: timeTolerance, .mallocCountTotal: mallocTolerance, stepsMetric: stepsTolerance])
    ) { benchmark in
        let run = HeartbeatWorkload.simulate(HeartbeatWorkload.Plan(users: 1_000))
        precondition(run.outcome != nil, "the timeline did not finish: \(run.simulationOutcome)")
        benchmark.measurement(stepsMetric, Int(run.steps))
    }
}
