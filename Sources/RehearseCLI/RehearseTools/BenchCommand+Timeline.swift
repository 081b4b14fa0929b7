import FirebaseHarness
import Foundation
import Harness
import RehearseCLI
import Scenarios
import Sim
import SimulatedFirebase

extension BenchCommand {
    /// (b) 72 hours of SafeNSound heartbeats on the simulator vs the same code under TestClock,
    /// then the simulator alone at `--users`.
    func runTimeline() throws -> [String] {
        let small = HeartbeatWorkload.Plan(users: testclockUsers)
        print("== timeline: \(small.hours) h of SafeNSound heartbeats (thresholds 24/48/72 h, every \(small.missingEvery)th user never checks in, checks every 30 min, sender every 2 min)")
        print("driver                    users  wall s   virtual h  outcome")
        var simulatedBest = Double.infinity
        var testClockBest = Double.infinity
        var outcomesMatch = true
        for _ in 0..<repetitions {
            let cpuBefore = threadCPUSeconds()
            let (simulated, simulatedSeconds) = timed { HeartbeatWorkload.simulate(small) }
            simulatedBest = min(simulatedBest, simulatedSeconds)
            printSimulated(simulated, users: small.users, seconds: simulatedSeconds, cpuSeconds: threadCPUSeconds() - cpuBefore)
            let testClock = TestClockTimeline.run(small)
            testClockBest = min(testClockBest, testClock.seconds)
            print(String(format: "TestClock (30-min steps) %6d  %6.2f   %9d  %@%@", small.users, testClock.seconds, small.hours,
                         testClock.outcome.map { "\($0)" } ?? "DID NOT FINISH", testClock.extraAdvances > 0 ? " (\(testClock.extraAdvances) extra advances)" : ""))
            if testClock.outcome != simulated.outcome {
                outcomesMatch = false
                print("MISMATCH: the TestClock run's outcome differs from the simulator's (TestClock's yields did not let all woken work run in time)")
            }
        }
        let ratio = testClockBest / simulatedBest
        print(String(format: "simulator vs TestClock at %d users (best of %d each): %.3f s vs %.3f s: simulator %.1f× faster; outcomes %@",
                     small.users, repetitions, simulatedBest, testClockBest, ratio, outcomesMatch ? "equal" : "DIFFER"))
        var missed: [String] = []
        if ratio < 10 { missed.append("≥ 10× TestClock") }

        let large = HeartbeatWorkload.Plan(users: users)
        var largeBest = Double.infinity
        var largeCPUBest = Double.infinity
        for _ in 0..<repetitions {
            let cpuBefore = threadCPUSeconds()
            let (simulated, seconds) = timed { HeartbeatWorkload.simulate(large) }
            let cpuSeconds = threadCPUSeconds() - cpuBefore
            largeBest = min(largeBest, seconds)
            largeCPUBest = min(largeCPUBest, cpuSeconds)
            printSimulated(simulated, users: large.users, seconds: seconds, cpuSeconds: cpuSeconds)
            guard simulated.outcome != nil else { throw RehearseError.failed("the simulated timeline did not finish: \(simulated.simulationOutcome)") }
        }
        let met = users >= 100_000 && largeBest <= 3
        print(String(format: "target 72 h for 100,000 users in ≤ 3 s on the simulator: %d users in %.2f s wall, %.2f s CPU (best of %d): %@",
                     users, largeBest, largeCPUBest, repetitions, users < 100_000 ? "not measured (--users < 100000)" : met ? "met" : "MISSED"))
        if users >= 100_000 && !met { missed.append("100k-user timeline ≤ 3 s") }
        return missed
    }

    private func printSimulated(_ run: HeartbeatWorkload.SimulatedRun, users: Int, seconds: Double, cpuSeconds: Double) {
        print(String(format: "simulator (FIFO)         %6d  %6.2f   %9d  %@; %.1f M steps, %.2f M steps/s; %.2f s CPU",
                     users, seconds, run.virtualNanoseconds / 3_600_000_000_000,
                     run.outcome.map { "\($0)" } ?? "\(run.simulationOutcome)", Double(run.steps) / 1e6, Double(run.steps) / seconds / 1e6, cpuSeconds))
    }
}

/// Times `body` with the wall clock (the CLI may read it; the kernel never does).
func timed<T>(_ body: () -> T) -> (T, Double) {
    let start = ContinuousClock.now
    let value = body()
    return (value, KernelBenchmarks.seconds(since: start))
}

/// CPU seconds used by the calling thread so far (a simulation runs on its caller's thread, so
/// this is its cost without the waiting a loaded machine adds to wall time).
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
