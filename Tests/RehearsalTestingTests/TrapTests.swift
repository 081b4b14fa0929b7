import Dispatch
import Foundation
import RehearsalTesting
import Sim
import Synchronization
import Testing

/// The ways a sweep could fool its user, each shown to be reported for what it is.
@Suite struct TrapTests {
    @Test func expectFailureReturnsTheFailureWithoutRecordingIt() throws {
        let failure = Rehearsal.expectFailure(seeds: 0..<50, matching: { $0.message.contains("alice overdrawn") }) {
            try await twoTransfers(safe: false)
        }
        #expect(try #require(failure).message.contains("alice overdrawn"))
    }

    @Test func expectFailureFailsTheTestWhenEveryRunPasses() {
        withKnownIssue("nothing was found: the test must fail") {
            _ = Rehearsal.expectFailure(seeds: 0..<20) { try await twoTransfers(safe: true) }
        } matching: { $0.comments.contains { $0.rawValue.contains("expected a failure, but all 60 runs passed") } }
    }

    @Test func expectFailureFailsTheTestWhenAnotherBugIsFound() {
        withKnownIssue("a deadlock is not the overdraft expected") {
            _ = Rehearsal.expectFailure(seeds: 0..<5, matching: { $0.message.contains("alice overdrawn") }) {
                await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            }
        } matching: { $0.comments.contains { $0.rawValue.contains("expected a particular failure, found another") } }
    }

    @Test func systemRandomnessIsAnEscapeNamingTheCallAndTheTask() throws {
        let failure = Rehearsal.expectFailure(seeds: 0..<3, options: .randomOnly) {
            await Simulation.spawn("dealer") { _ = Int.random(in: 0..<52) }.value
        }
        let message = try #require(failure).message
        #expect(message.contains("system-randomness"), "\(message)")
        #expect(message.contains("task dealer"), "\(message)")
        #expect(try #require(failure).seed == 0, "found at the first seed, not by chance")
    }

    @Test(arguments: ["UUID()", "shuffled()", "randomElement()", "Bool.random()"])
    func everyUseOfSystemRandomnessIsCaught(_ call: String) {
        let bodies: [String: @Sendable () async throws -> Void] = [
            "UUID()": { _ = UUID() }, "shuffled()": { _ = [1, 2, 3].shuffled() },
            "randomElement()": { _ = (1...9).randomElement() }, "Bool.random()": { _ = Bool.random() },
        ]
        let failure = Rehearsal.expectFailure(seeds: 0..<1, options: .randomOnly, bodies[call]!)
        #expect(failure?.message.contains("system-randomness") == true, "\(call): \(failure?.message ?? "none")")
    }

    @Test func systemRandomnessOutsideStrictModeIsSeededAndDeterministic() {
        let configuration = SimulationConfiguration(seed: 4, strict: false)
        let first = Simulation.run(configuration) { "\(Int.random(in: 0..<1_000_000)) \(UUID())" }
        let second = Simulation.run(configuration) { "\(Int.random(in: 0..<1_000_000)) \(UUID())" }
        #expect(first.outcome.isSuccess && first.output == second.output)
        #expect(Int.random(in: 0..<1_000_000) >= 0, "outside a simulation the real generator answers")
    }

    @Test func aDispatchCallbackIsAnEscapeNotADeadlock() throws {
        let failure = Rehearsal.expectFailure(seeds: 0..<2, options: .randomOnly) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { continuation.resume() }
            }
        }
        let message = try #require(failure).message
        #expect(message.contains("foreign-thread") && message.contains("DispatchQueue.async"), "\(message)")
        #expect(!message.hasPrefix("deadlock"))
    }

    @Test func aThreadStartedInsideIsAnEscapeNotADeadlock() throws {
        let failure = Rehearsal.expectFailure(seeds: 0..<2, options: .randomOnly) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread { continuation.resume() }.start()
            }
        }
        let message = try #require(failure).message
        #expect(message.contains("foreign-thread") && message.contains("Thread.start"), "\(message)")
        #expect(!message.hasPrefix("deadlock"))
    }

    @Test func aLivelockIsReportedInAMillionStepsNamingWhatKeptRunning() throws {
        let failure = Rehearsal.expectFailure(seeds: 0..<1, options: .randomOnly) {
            let spinner = Simulation.spawn("spinner") { while !Task.isCancelled { await Task.yield() } }
            await spinner.value
        }
        let message = try #require(failure).message
        #expect(message.hasPrefix("step limit reached") && message.contains("task spinner"), "\(message)")
    }

    @Test func anEndlessSleepLoopEndsAtOneVirtualDay() throws {
        let failure = Rehearsal.expectFailure(seeds: 0..<1, options: .randomOnly) {
            await Simulation.spawn("poller") { while true { try? await SimClock().sleep(for: .seconds(30)) } }.value
        }
        let message = try #require(failure).message
        #expect(message.hasPrefix("virtual time limit reached") && message.contains("task poller"), "\(message)")
    }

    @Test func aSweepCatchesABodyThatRunsDifferentlyEachTime() throws {
        // Nondeterminism from outside the simulation's reach: a counter shared across runs.
        let runs = Mutex(0)
        var found: RehearsalFailure?
        withKnownIssue("the sweep reports the nondeterminism") {
            found = Rehearsal.sweep(seeds: 0..<20, options: .randomOnly) {
                let count = runs.withLock { value in value += 1; return value }
                for _ in 0..<(count % 3) { await Task.yield() }
            }
        } matching: { $0.comments.contains { $0.rawValue.contains("nondeterministic") } }
        #expect(try #require(found).message.contains("likely causes"))
    }

    /// A job that never returns to the scheduler fails its sweep (a "stuck job" naming its task)
    /// and the test goes on: the run's thread is abandoned, not the process. When the job ends
    /// after all, the abandoned run ends unseen and its thread exits.
    @Test func aStuckJobFailsItsSweepAndTheTestGoesOn() throws {
        let release = StuckRelease()
        let limits = RunLimits(maxSteps: 10_000, maxVirtualNanoseconds: 1_000_000_000, strict: true, stuckJobSeconds: 1)
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<1, limits: limits, options: .randomOnly) {
            await Simulation.spawn("spinner") { release.spin() }.value
        })
        release.stop()
        #expect(failure.message.hasPrefix("stuck job: rehearsal watchdog: the simulation has run one job for 1.0 seconds"), "\(failure.message)")
        #expect(failure.message.contains("task spinner"), "\(failure.message)")
        #expect(failure.message.contains("this run fails and its thread is abandoned"), "\(failure.message)")
        #expect(failure.scheduleSearch == .notSearched("a stuck job: every try would cost the stuck-job limit and abandon a thread"))
        // The process is alive and the next simulation runs as usual.
        #expect(Rehearsal.sweep(seeds: 0..<3, options: .randomOnly) { await Task.yield() } == nil)
    }

    @Test func theLimitsOfASweepAppearInItsReplayCall() throws {
        let limits = RunLimits(maxSteps: 5_000, maxVirtualNanoseconds: 1_000_000_000, strict: true, stuckJobSeconds: 5)
        let failure = Rehearsal.expectFailure(seeds: 0..<1, limits: limits, options: .randomOnly) {
            await Simulation.spawn("spinner") { while true { await Task.yield() } }.value
        }
        let call = try #require(failure).replayCall
        #expect(call.contains("limits: RunLimits(maxSteps: 5000"), "\(call)")
        #expect(try #require(failure).build == Rehearsal.currentBuild)
    }
}

/// A busy loop a test can end: the stuck job of `aStuckJobFailsItsSweepAndTheTestGoesOn`.
final class StuckRelease: Sendable {
    private let released = Atomic<Bool>(false)

    /// Loops without an await until `stop`.
    func spin() { while !released.load(ordering: .relaxed) {} }

    /// Ends the loop.
    func stop() { released.store(true, ordering: .relaxed) }
}
