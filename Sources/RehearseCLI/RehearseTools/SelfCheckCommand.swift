import ArgumentParser
import FirebaseHarness
import Foundation
import Harness
import KernelWorkloads
import RehearseCLI
import Sim
import SimulatedFirebase

/// `rehearse selfcheck`: runs the kernel's racing workload over many seeds, twice each, and fails
/// on the first seed whose two runs differ.
struct SelfCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selfcheck",
        abstract: "Run the kernel's racing workload over N seeds twice each; fail on any mismatch.")

    @Option(parsing: .unconditional, help: "Number of seeds (0..<N).")
    var seeds: Int = 1_000

    @Option(parsing: .unconditional, help: "Worker threads (default: one per core).")
    var jobs: Int = SimulationPool.processorCount

    @Option(parsing: .unconditional, help: "Scheduling strategy: random (the default), pct:D, pct:D:K, urw, portfolio, nonpreemptive or fifo.", transform: ArgumentValue.strategy)
    var strategy: SchedulingStrategy = .random

    @Option(parsing: .unconditional, help: "Bidders in the racing workload.")
    var bidders: Int = 50

    @Flag(help: "No progress bar.")
    var quiet = false

    @Option(parsing: .unconditional, help: "Also write the first seed's full trace as JSON Lines to this file.")
    var trace: String?

    func validate() throws {
        try Limits.check(seeds, in: Limits.selfcheckSeeds, option: "--seeds", limit: "selfcheckSeeds")
        try Limits.check(jobs, in: Limits.jobs, option: "--jobs", limit: "jobs")
        try Limits.check(bidders, in: Limits.selfcheckBidders, option: "--bidders", limit: "selfcheckBidders")
        if let trace { try AtomicFile.refuseUnusualTarget(trace) }
    }

    func run() throws {
        let (strategy, bidders) = (strategy, bidders)
        print("selfcheck: \(seeds) seeds × 2 runs, strategy \(strategy), \(bidders) bidders, \(jobs) thread(s)")
        print("build: \(Fingerprint.current); deterministic hashing: \(DeterministicHashing.isOn ? "on" : "OFF")")
        let progress = ProgressBar(total: seeds, label: "selfcheck", quiet: quiet)
        let start = ContinuousClock.now
        let verdicts = SimulationPool.map(Array(UInt64(0)..<UInt64(seeds)), threads: jobs, progress: progress.update) { seed in
            DeterminismCheck.check(SimulationConfiguration(seed: seed, strategy: strategy)) {
                try await KernelWorkload.auctionRace(bidders: bidders)
            }
        }
        progress.finish()
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let steps = verdicts.reduce(UInt64(0)) { $0 + $1.steps } * 2
        let failures = verdicts.filter { !$0.isDeterministic }
        print(String(format: "runs: %d in %.2f s: %.0f seeds/s (×2 runs), %.2f M jobs/s", seeds * 2, seconds,
                     Double(seeds) / seconds, Double(steps) / seconds / 1e6))
        for failure in failures.prefix(5) { print("MISMATCH " + failure.summary) }
        guard failures.isEmpty else {
            throw RehearseError.failed("\(failures.count) of \(seeds) seeds were not deterministic; replay one with: rehearse selfcheck --seeds \(failures[0].seed + 1) --jobs 1")
        }
        if let trace {
            var recording = SimulationConfiguration(seed: 0, strategy: strategy)
            recording.recordsTrace = true
            let result = Simulation.run(recording) { try await KernelWorkload.auctionRace(bidders: bidders) }
            do { try TraceFile.write(result, to: trace) } catch { throw RehearseError.badInput(error.description) }
            print("trace of seed 0 (\(result.trace.count) entries, hash \(result.traceHash)) written to \(trace)")
        }
        print("ok: every seed reproduced its trace hash")
    }
}
