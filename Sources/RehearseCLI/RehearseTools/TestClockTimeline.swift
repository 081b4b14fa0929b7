import Clocks
import Domain
import FirebaseHarness
import Foundation
import Harness
import RehearseCLI
import Scenarios
import SimulatedFirebase
import Synchronization

/// The heartbeat timeline as Swift users test such code today: the same domain code on the real
/// runtime (`ConcurrentPoolExecutorSource`), its clock a swift-clocks `TestClock` that the test
/// advances in 30-minute steps. `TestClock.advance` resumes each due sleeper and then yields
/// ("mega-yield") hoping the woken code has run: the outcome is compared with the simulator's.
enum TestClockTimeline {
    struct Run {
        var outcome: HeartbeatWorkload.Outcome?
        var seconds: Double
        /// Extra zero-length advances needed after the last step before every task finished
        /// (a sleeper registered after the clock had passed its deadline).
        var extraAdvances: Int
    }

    static let step: Duration = .seconds(30 * 60)
    /// A bound on the extra advances, so a lost sleeper ends the measurement instead of hanging it.
    static let extraAdvancesLimit = 1_000

    static func run(_ plan: HeartbeatWorkload.Plan) -> Run {
        let result = Mutex<Run?>(nil)
        let started = ContinuousClock.now
        KernelBenchmarks.blockingWait {
            let clock = TestClock<Duration>()
            let environment = DomainEnvironment(
                clock: DomainClock(clock, epochUnixNanoseconds: 1_768_176_000 * 1_000_000_000),
                executors: ConcurrentPoolExecutorSource(), random: SeededRandomSource(seed: 1))
            let timeline = HeartbeatWorkload(plan: plan, environment: environment)
            await timeline.register()
            let finished = Mutex<HeartbeatWorkload.Outcome?>(nil)
            let task = Task {
                let outcome = await timeline.run()
                finished.withLock { $0 = outcome }
            }
            for _ in 0..<(plan.hours * 2) { await clock.advance(by: step) }
            var extra = 0
            while finished.withLock({ $0 == nil }) && extra < extraAdvancesLimit {
                await clock.advance(by: .zero)
                extra += 1
            }
            let outcome = finished.withLock { $0 }
            if outcome == nil { task.cancel() }
            result.withLock { $0 = Run(outcome: outcome, seconds: 0, extraAdvances: extra) }
        }
        var run = result.withLock { $0! }
        run.seconds = KernelBenchmarks.seconds(since: started)
        return run
    }
}
