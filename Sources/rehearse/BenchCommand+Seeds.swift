import Foundation
import Sim

extension BenchCommand {
    /// (c) Seeds/s of the 50-bidder auction race on 1 and on 2 threads, and the scaling ratio.
    /// Uses the kernel's `KernelWorkload.auctionRace` (random strategy, one run per seed).
    func runSeeds() throws -> [String] {
        let seedList = Array(UInt64(0)..<UInt64(seeds))
        print("== seeds: \(seeds) seeds of KernelWorkload.auctionRace (50 bidders, 3 rounds, random strategy), SimulationPool.map")
        var bestByThreads: [Int: Double] = [:]
        var hashesByThreads: [Int: [TraceHash]] = [:]
        for _ in 0..<repetitions {
            for threads in [1, 2] {
                let (hashes, seconds) = timed {
                    SimulationPool.map(seedList, threads: threads) { seed in
                        Simulation.run(SimulationConfiguration(seed: seed, strategy: .random)) {
                            try await KernelWorkload.auctionRace(bidders: 50)
                        }.traceHash
                    }
                }
                let rate = Double(seeds) / seconds
                print(String(format: "%d thread(s): %.2f s, %.0f seeds/s", threads, seconds, rate))
                bestByThreads[threads] = max(bestByThreads[threads] ?? 0, rate)
                hashesByThreads[threads] = hashes
            }
        }
        guard hashesByThreads[1] == hashesByThreads[2] else {
            throw RehearseError.failed("trace hashes on 1 and 2 threads differ: runs are not confined to their threads")
        }
        let one = bestByThreads[1]!, two = bestByThreads[2]!
        let scaling = two / one
        let met = two >= 2_000 && scaling >= 1.8
        print(String(format: "best of %d: %.0f seeds/s on 1 thread, %.0f on 2 (%.2f×); trace hashes equal on both", repetitions, one, two, scaling))
        print("target ≥ 2,000 seeds/s on 2 cores with ≥ 1.8× scaling: \(met ? "met" : "MISSED")")
        return met ? [] : ["seeds/s"]
    }
}
