import FirebaseHarness
import Foundation
import Harness
import KernelWorkloads
import RehearseCLI
import Scenarios
import Sim
import SimulatedFirebase

extension BenchCommand {
    /// (c) Seeds/s of a 50-bidder auction race on 1 and on 2 threads (`SimulationPool.map`), and
    /// the scaling ratio: the `auction-race` scenario (50 bidders, full report per seed) is the
    /// target; the kernel's `KernelWorkload.auctionRace` is printed beside it for reference.
    func runSeeds() throws -> [String] {
        let workloads: [(name: String, seeds: Int, run: @Sendable (UInt64) -> String)] = [
            ("auction-race scenario (50 bidders, random)", scenarioSeeds, { seed in
                let request = RunRequest(scenario: "auction-race", seed: seed, strategy: .random, parameters: ["bidders": 50])
                do {
                    let (report, _) = try ScenarioRunner.run(request)
                    return report.traceHash
                } catch {
                    return "error: \(error)"
                }
            }),
            ("KernelWorkload.auctionRace (50 bidders, 3 rounds, random)", seeds, { seed in
                Simulation.run(SimulationConfiguration(seed: seed, strategy: .random)) {
                    try await KernelWorkload.auctionRace(bidders: 50)
                }.traceHash.description
            }),
        ]
        print("== seeds: one simulation per seed, SimulationPool.map on 1 and 2 threads")
        var missed: [String] = []
        for (index, workload) in workloads.enumerated() {
            let seedList = Array(UInt64(0)..<UInt64(workload.seeds))
            var bestByThreads: [Int: Double] = [:]
            var cpuByThreads: [Int: Double] = [:]
            var hashesByThreads: [Int: [String]] = [:]
            for _ in 0..<repetitions {
                for threads in [1, 2] {
                    let cpuBefore = processCPUSeconds()
                    let (hashes, seconds) = timed { SimulationPool.map(seedList, threads: threads, workload.run) }
                    let cpuSeconds = processCPUSeconds() - cpuBefore
                    let rate = Double(workload.seeds) / seconds
                    print(String(format: "%@: %d seeds on %d thread(s): %.2f s wall, %.2f s CPU, %.0f seeds/s", workload.name as NSString, workload.seeds, threads, seconds, cpuSeconds, rate))
                    cpuByThreads[threads] = min(cpuByThreads[threads] ?? .infinity, cpuSeconds)
                    bestByThreads[threads] = max(bestByThreads[threads] ?? 0, rate)
                    hashesByThreads[threads] = hashes
                }
            }
            if let failed = hashesByThreads[1]?.first(where: { $0.hasPrefix("error") }) {
                throw RehearseError.failed("\(workload.name): \(failed)")
            }
            guard hashesByThreads[1] == hashesByThreads[2] else {
                throw RehearseError.failed("\(workload.name): trace hashes on 1 and 2 threads differ: runs are not confined to their threads")
            }
            let one = bestByThreads[1]!, two = bestByThreads[2]!
            let scaling = two / one
            print(String(format: "%@: best of %d: %.0f seeds/s on 1 thread, %.0f on 2 (%.2f×); trace hashes equal on both",
                         workload.name as NSString, repetitions, one, two, scaling))
            // Wall-clock scaling needs a free second core; CPU seconds show whether 2 threads do
            // extra work (contention) even when the machine is shared.
            print(String(format: "%@: CPU seconds for the same seeds: %.2f on 1 thread, %.2f on 2 (%.2f× the work per seed)",
                         workload.name as NSString, cpuByThreads[1]!, cpuByThreads[2]!, cpuByThreads[2]! / cpuByThreads[1]!))
            let met = two >= 2_000 && scaling >= 1.8
            print("target ≥ 2,000 seeds/s on 2 cores with ≥ 1.8× scaling (\(index == 0 ? "auction-race scenario" : "kernel workload")): \(met ? "met" : "MISSED")")
            if !met { missed.append("seeds/s (\(index == 0 ? "scenario" : "kernel workload"))") }
        }
        return missed
    }
}

/// CPU seconds (user + system) used by the whole process so far.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
