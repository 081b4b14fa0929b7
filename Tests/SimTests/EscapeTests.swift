import Foundation
import Testing
@testable import Sim

actor Counter: SimActor {
    nonisolated let simExecutor = SimExecutor("counter")
    var value = 0
    func bump() -> Int { value += 1; return value }
}

@Suite struct EscapeTests {
    @Test func clockInterposerIsLinked() {
        #expect(ClockInterposer.isActive, "link with -Xlinker --export-dynamic so clock_gettime is interposed")
    }

    @Test func unstructuredTasksStayInside() {
        let result = Simulation.run(SimulationConfiguration(seed: 7)) { () async -> Int in
            let counter = Counter()
            let a = Task { await counter.bump() }
            let b = Task.detached { await counter.bump() }
            let c = Task { () async -> Int in
                try? await Task.sleep(for: .seconds(3600))
                return await counter.bump()
            }
            _ = await a.value
            _ = await b.value
            return await c.value
        }
        #expect(result.outcome == .finished, "\(result.outcome)")
        #expect(result.output == 3)
        #expect(result.globalJobsCaptured >= 2)
        #expect(result.virtualNanoseconds == 3_600_000_000_000)
    }

    @Test func systemClocksAreVirtualInside() {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) { () async throws -> [Int64] in
            let start = ContinuousClock.now
            let date0 = Date().timeIntervalSince1970
            try await Task.sleep(for: .seconds(90))
            let elapsed = start.duration(to: ContinuousClock.now)
            let date1 = Date().timeIntervalSince1970
            return [Int64(date0), Int64(date1), elapsed.components.seconds]
        }
        #expect(result.outcome == .finished, "\(result.outcome)")
        #expect(result.output == [1_768_176_000, 1_768_176_090, 90])
    }

    /// Virtual sleeps never block in real time: strict mode (the default) ends the run as an escape
    /// if one did, and 72 real hours would never finish. (No wall-clock bound: timed unit tests
    /// flake on a loaded machine; `rehearse bench` measures speed.)
    @Test func seventyTwoVirtualHoursCostNoWallTime() {
        let result = Simulation.run(SimulationConfiguration(seed: 3)) {
            await withTaskGroup(of: Void.self) { group in
                for user in 0..<100 {
                    group.addTask {
                        var random = Simulation.random("user/\(user)")
                        while Simulation.nowNanoseconds < 72 * 3_600 * 1_000_000_000 {
                            try? await SimClock().sleep(for: .seconds(60 * (5 + random.below(60))))
                        }
                    }
                }
            }
        }
        #expect(result.configuration.strict)
        #expect(result.outcome == .finished)
        #expect(result.virtualNanoseconds >= 72 * 3_600 * 1_000_000_000)
    }

    @Test func mainActorUseIsRefused() {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) {
            await MainActor.run { _ = 1 }
        }
        guard case .escaped(let escapes) = result.outcome else {
            Issue.record("expected an escape, got \(result.outcome)")
            return
        }
        #expect(escapes.first?.kind == .mainActor)
    }

    /// Strict mode declares a deadlock at once (kernel speed, no real-time wait): a task that a
    /// real thread would resume later fails the run either way. Non-strict mode tolerates real
    /// threads: it waits for the resume and adopts it.
    @Test func foreignThreadResumeFailsInStrictModeAndIsAdoptedOtherwise() {
        func run(strict: Bool) -> SimulationResult<Void> {
            Simulation.run(SimulationConfiguration(seed: 1, strict: strict)) {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    // The real thread resumes after the task has suspended (20 ms of real time later).
                    let thread = Thread { usleep(20_000); continuation.resume() }
                    thread.start()
                }
            }
        }
        // Strict mode fails the run either way: normally as a deadlock declared at once; on a loaded
        // machine the simulation thread can be descheduled past the 20 ms and see the resume as a
        // foreign thread's escape. Only a finished or otherwise-failed run is wrong.
        let strict = run(strict: true)
        switch strict.outcome {
        case .deadlock: #expect(strict.outcome.description.contains("strict"))
        case .escaped(let escapes): #expect(escapes.contains { $0.kind == .foreignThread }, "\(strict.outcome)")
        default: Issue.record("expected strict mode to fail the run, got \(strict.outcome)")
        }
        #expect(run(strict: false).outcome == .finished)
    }

    /// A task the simulation captured from the global executor (`Task {}` has no executor
    /// preference) and resumed from a real thread is routed back to its simulation
    /// (`ForeignJobRouter`): adopted when not strict, an escape when strict — never run on the
    /// real thread pool.
    @Test func foreignResumeOfACapturedTaskComesBackToItsSimulation() {
        func run(strict: Bool) -> SimulationResult<Bool> {
            Simulation.run(SimulationConfiguration(seed: 1, strict: strict)) { () -> Bool in
                let task = Task { () -> Bool in
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread { usleep(20_000); continuation.resume() }.start()
                    }
                    return SimulationContext.current != nil
                }
                return await task.value
            }
        }
        let adopted = run(strict: false)
        #expect(adopted.outcome == .finished)
        #expect(adopted.output == true, "the resumed task ran outside the simulation")
        let strict = run(strict: true)
        #expect(strict.outcome != .finished)
    }

    @Test("TaskClaims holds exactly the ids inserted: dense, below the first, far apart")
    func taskClaimsMatchASet() {
        var claims = TaskClaims()
        var model = Set<UInt64>()
        var state: UInt64 = 99
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let far = UInt64(TaskClaims.maximumWords) * 64
        for index in 0..<5_000 {
            let id: UInt64
            switch index % 10 {
            case 0: id = 1_000_000 - next() % 50_000  // below the first ids: the bits grow downwards
            case 1: id = 1_000_000 + far + next() % 1_000  // too far above: an outlier
            case 2: id = next() % 64  // far below: the bits grow down to 0
            default: id = 1_000_000 + next() % 20_000
            }
            claims.insert(id)
            model.insert(id)
        }
        for id in model { #expect(claims.contains(id)) }
        // Ids too far below the first ones to grow the bits down to: outliers.
        var high = TaskClaims()
        let top = far * 4
        high.insert(top)
        high.insert(top - far - 64)
        high.insert(top - 1)
        #expect(high.contains(top) && high.contains(top - far - 64) && high.contains(top - 1))
        #expect(!high.contains(top - far - 63) && !high.contains(top - 2) && !high.contains(top + 1))
        var checked = 0
        for _ in 0..<20_000 {
            let id = 1_000_000 - 60_000 + next() % 100_000
            #expect(claims.contains(id) == model.contains(id))
            checked += 1
        }
        #expect(!claims.contains(0) || model.contains(0))
        #expect(!claims.contains(UInt64.max))
        #expect(checked == 20_000)
    }

    @Test func deadlockNamesBlockedTasks() {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) {
            let gate = Gate()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await Simulation.named("waiter-a") { await gate.wait() } }
                group.addTask { await Simulation.named("waiter-b") { await gate.wait() } }
            }
        }
        #expect(result.outcome == .deadlock(blockedTasks: ["waiter-a", "waiter-b"]), "\(result.outcome)")
        #expect(result.steps < 20)
    }

    @Test func stepLimitEndsARunawayRun() {
        let result = Simulation.run(SimulationConfiguration(seed: 1, limits: SimulationLimits(maxSteps: 1_000))) {
            while true { await Task.yield() }
        }
        #expect(result.outcome.kind == "step-limit")
        #expect(result.steps == 1_000)
    }

    @Test func timeLimitEndsAnEndlessTimeline() {
        let limits = SimulationLimits(maxVirtualNanoseconds: 3_600 * 1_000_000_000)
        let result = Simulation.run(SimulationConfiguration(seed: 1, limits: limits)) {
            while true { try? await SimClock().sleep(for: .seconds(60)) }
        }
        #expect(result.outcome.kind == "time-limit")
        // The root task is the sleeper the last advance woke: counted, not "0 timer(s)".
        #expect(result.outcome.description.contains("still waiting: 1 sleeper(s)"), "\(result.outcome)")
    }
}

/// Waiters that are never resumed: a deliberate deadlock.
actor Gate: SimActor {
    nonisolated let simExecutor = SimExecutor("gate")
    var waiters: [CheckedContinuation<Void, Never>] = []
    func wait() async { await withCheckedContinuation { waiters.append($0) } }
}

@Suite struct RealTimeSleepTests {
    @Test func threadSleepIsAnEscapeInStrictMode() {
        let result = Simulation.run(SimulationConfiguration(seed: 1, strict: true)) {
            blockingSleep(seconds: 5)
        }
        guard case .escaped(let escapes) = result.outcome else {
            Issue.record("expected an escape, got \(result.outcome)")
            return
        }
        #expect(escapes.first?.kind == .realTimeSleep)
    }

    /// A minute's sleep must return at once: the bound is half of it, so only a sleep that really
    /// waited fails, however loaded the machine.
    @Test func threadSleepReturnsAtOnceWhenNotStrict() {
        let wallStart = ContinuousClock.now
        let result = Simulation.run(SimulationConfiguration(seed: 1, strict: false)) {
            blockingSleep(seconds: 60)
        }
        #expect(result.outcome == .finished)
        #expect(wallStart.duration(to: .now) < .seconds(30))
    }
}

/// A synchronous real-time sleep, the kind of call that must not run inside a simulation.
func blockingSleep(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }
