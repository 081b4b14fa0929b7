import ArgumentParser
import FirebaseHarness
import Foundation
import Harness
import KernelWorkloads
import RehearseCLI
import Sim
import SimulatedFirebase

/// `rehearse bench`: the simulator against what Swift users have today, side by side in one run,
/// as ratios. Sections: `kernel` (actor workloads vs the default executor), `timeline` (72 h of
/// SafeNSound on the simulator vs swift-clocks' `TestClock`), `seeds` (auction race seeds/s on 1
/// and 2 threads), `memory` (bytes per idle simulated user), `explore` (bounded exhaustive search).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the simulator against Swift's default executor and TestClock, side by side.",
        discussion: "Wall-clock numbers on a shared machine are noisy: compare the ratios, and repeat.")

    /// The sections, in the order they run.
    enum Section: String, CaseIterable {
        // Memory first: its RSS reading (without jemalloc) is only meaningful in a fresh process.
        case memory, kernel, timeline, seeds
        /// Memory per user of every scenario (not in the default set: it runs each scenario twice).
        case usersMemory = "users-memory"
        /// Bounded exhaustive exploration of the ported programs (not in the default set).
        case explore
        /// `rehearse load`'s generator against wrk, one document write per request to the
        /// Firestore emulator (not in the default set: it starts the emulator and needs wrk).
        case serverWrites = "server-writes"
    }

    /// The sections run when `--only` is not given.
    static let defaultSections: [Section] = [.memory, .kernel, .timeline, .seeds]

    @Option(parsing: .unconditional, help: "Comma-separated sections: kernel, timeline, seeds, memory, users-memory, explore, server-writes (default: the first four).", transform: ArgumentValue.benchSections)
    var only: [Section]?

    @Option(parsing: .unconditional, help: "Round trips for ping-pong; messages for fan-in.")
    var messages: Int = 200_000

    @Option(parsing: .unconditional, help: "Repetitions of each measurement (the best is reported).")
    var repetitions: Int = 3

    @Option(parsing: .unconditional, help: "Users of the simulated 72-hour timeline (the target: 100000 in ≤ 3 s).")
    var users: Int = 100_000

    @Option(parsing: .unconditional, help: "Users of the side-by-side simulator vs TestClock timeline.")
    var testclockUsers: Int = 1_000

    @Option(parsing: .unconditional, help: "Seeds of the kernel's 50-bidder auction race per thread count.")
    var seeds: Int = 2_000

    @Option(parsing: .unconditional, help: "Seeds of the auction-race scenario (50 bidders, full report per seed) per thread count.")
    var scenarioSeeds: Int = 200

    @Option(parsing: .unconditional, help: "Idle users registered for the memory section.")
    var memoryUsers: Int = 100_000

    @Flag(help: "Exit 1 when a target printed as MISSED (default: report only; wall time on a shared machine is noisy).")
    var checkTargets = false

    /// The sections to run, in run order.
    var sections: [Section] { only ?? Self.defaultSections }

    func validate() throws {
        try Limits.check(messages, in: Limits.benchMessages, option: "--messages", limit: "benchMessages")
        try Limits.check(repetitions, in: Limits.benchRepetitions, option: "--repetitions", limit: "benchRepetitions")
        try Limits.check(users, in: Limits.benchUsers, option: "--users", limit: "benchUsers")
        try Limits.check(testclockUsers, in: Limits.benchTestClockUsers, option: "--testclock-users", limit: "benchTestClockUsers")
        try Limits.check(seeds, in: Limits.benchSeeds, option: "--seeds", limit: "benchSeeds")
        try Limits.check(scenarioSeeds, in: Limits.benchSeeds, option: "--scenario-seeds", limit: "benchSeeds")
        guard memoryUsers >= 100 else { throw InputError.fail("--memory-users \(memoryUsers) must be at least 100") }
        try Limits.check(memoryUsers, in: Limits.benchUsers, option: "--memory-users", limit: "benchUsers")
    }

    func run() throws {
        print("bench: sections \(sections.map(\.rawValue).joined(separator: ",")), best of \(repetitions); build: \(Fingerprint.current)")
        print("allocator: \(MemoryProbe.allocatorName); \(SimulationPool.processorCount) CPUs; wall-clock numbers are noisy on a shared machine")
        var missed: [String] = []
        for section in sections {
            print("")
            fflush(nil)
            switch section {
            case .kernel: missed += runKernel()
            case .timeline: missed += try runTimeline()
            case .seeds: missed += try runSeeds()
            case .memory: missed += runMemory()
            case .usersMemory: missed += try runScenarioMemory()
            case .explore: missed += runExplore()
            case .serverWrites: missed += try runServerWrites()
            }
        }
        print("")
        print(missed.isEmpty ? "targets: all met" : "targets missed: \(missed.joined(separator: "; "))")
        if checkTargets && !missed.isEmpty {
            throw RehearseError.failed("\(missed.count) target(s) missed: \(missed.joined(separator: "; "))")
        }
    }

    /// (a) The simulator against Swift's default executor on the same actor workloads.
    private func runKernel() -> [String] {
        print("== kernel: \(messages) messages, simulator vs default executor")
        let messages = messages
        let rows: [(String, Measurement, Measurement)] = [
            ("ping-pong", best { KernelBenchmarks.simulatedPingPong(roundTrips: messages) },
                          best { KernelBenchmarks.defaultPingPong(roundTrips: messages) }),
            ("fan-in (100 senders)", best { KernelBenchmarks.simulatedFanIn(messages: messages, senders: 100) },
                          best { KernelBenchmarks.defaultFanIn(messages: messages, senders: 100) }),
        ]
        print("workload              | simulator: jobs/s   ns/job  jobs/msg  msgs/s  | default executor: msgs/s | sim/default msgs/s")
        for (name, simulated, native) in rows {
            print(String(format: "%-21@ | %8.2f M  %7.1f  %8.2f  %6.2f M | %14.2f M          | %.2f×",
                         name as NSString, simulated.jobsPerSecond / 1e6, 1e9 / simulated.jobsPerSecond,
                         Double(simulated.jobs) / Double(simulated.messages), simulated.messagesPerSecond / 1e6,
                         native.messagesPerSecond / 1e6, simulated.messagesPerSecond / native.messagesPerSecond))
        }
        let pingPongJobsPerSecond = rows[0].1.jobsPerSecond
        print(String(format: "target ≥ 10 M jobs/s on one thread (ping-pong): %.2f M: %@", pingPongJobsPerSecond / 1e6,
                     pingPongJobsPerSecond >= 10e6 ? "met" : "MISSED"))
        let deadlock = (0..<repetitions).map { _ in KernelBenchmarks.deadlockSeeds(seeds: 5_000) }.max { $0.seedsPerSecond < $1.seedsPerSecond }!
        print(String(format: "lock-order inversion (PCT paper Fig. 1c), pct:2:60, one thread: %.0f seeds/s, %d of %d seeds deadlocked; target ≥ 10,000 seeds/s: %@",
                     deadlock.seedsPerSecond, deadlock.deadlocks, deadlock.seeds, deadlock.seedsPerSecond >= 10_000 ? "met" : "MISSED"))
        var missed: [String] = []
        if pingPongJobsPerSecond < 10e6 { missed.append("jobs/s") }
        if deadlock.seedsPerSecond < 10_000 { missed.append("deadlock seeds/s") }
        return missed
    }

    private func best(_ measure: () -> Measurement) -> Measurement {
        (0..<repetitions).map { _ in measure() }.max { $0.messagesPerSecond < $1.messagesPerSecond }!
    }
}

/// One timed run: wall seconds, messages delivered and scheduler jobs run.
struct Measurement {
    var seconds: Double
    var messages: Int
    var jobs: UInt64
    var messagesPerSecond: Double { Double(messages) / seconds }
    var jobsPerSecond: Double { Double(jobs) / seconds }
}

/// The benchmark workloads, each on the simulator and on Swift's default executor.
enum KernelBenchmarks {
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func time(_ body: () -> UInt64) -> (Double, UInt64) {
        let start = ContinuousClock.now
        let jobs = body()
        let elapsed = start.duration(to: .now)
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, jobs)
    }

    /// Seeds of the lock-order inversion under PCT(2) on one thread: how fast deadlocks are declared.
    static func deadlockSeeds(seeds: Int) -> (seedsPerSecond: Double, deadlocks: Int, seeds: Int) {
        var deadlocks = 0
        let start = ContinuousClock.now
        for seed in 0..<seeds {
            let outcome = Simulation.run(SimulationConfiguration(seed: UInt64(seed), strategy: .pct(depth: 2, horizon: 60))) {
                await KernelWorkload.lockOrderInversion()
            }.outcome
            if case .deadlock = outcome { deadlocks += 1 }
        }
        return (Double(seeds) / Self.seconds(since: start), deadlocks, seeds)
    }

    static func simulatedPingPong(roundTrips: Int) -> Measurement {
        let (seconds, jobs) = time {
            Simulation.run(SimulationConfiguration(seed: 1, strategy: .fifo)) {
                await KernelWorkload.pingPong(roundTrips: roundTrips)
            }.steps
        }
        return Measurement(seconds: seconds, messages: roundTrips, jobs: jobs)
    }

    static func simulatedFanIn(messages: Int, senders: Int) -> Measurement {
        let (seconds, jobs) = time {
            Simulation.run(SimulationConfiguration(seed: 1, strategy: .random)) {
                await KernelWorkload.fanIn(messages: messages, senders: senders)
            }.steps
        }
        return Measurement(seconds: seconds, messages: messages, jobs: jobs)
    }

    static func defaultPingPong(roundTrips: Int) -> Measurement {
        let (seconds, _) = time {
            blockingWait {
                await KernelWorkload.nativePingPong(roundTrips: roundTrips)
            }
            return 0
        }
        return Measurement(seconds: seconds, messages: roundTrips, jobs: 0)
    }

    static func defaultFanIn(messages: Int, senders: Int) -> Measurement {
        let (seconds, _) = time {
            blockingWait {
                await KernelWorkload.nativeFanIn(messages: messages, senders: senders)
            }
            return 0
        }
        return Measurement(seconds: seconds, messages: messages, jobs: 0)
    }

    /// Runs `body` on the default executor and blocks the calling (non-pool) thread until it ends.
    static func blockingWait(_ body: @escaping @Sendable () async -> Void) { BlockingWait.run(body) }
}
