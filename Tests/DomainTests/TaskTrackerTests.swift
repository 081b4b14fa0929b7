import Domain
import Sim
import SimulatedFirebase
import Testing

/// Background tasks (trigger deliveries, scheduled runs) that prefer the simulator's task
/// executor continue inline through nonisolated calls, as the real runtime does; a plain
/// `Task {}` inside a simulation costs a scheduler step at every such call and return.
@Suite struct TaskTrackerTests {
    /// Sleeps once at each of `depth` nested nonisolated calls, then once more on the way out.
    private static func nested(_ clock: SimClock, depth: Int) async {
        guard depth > 0 else { return }
        try? await clock.sleep(for: .milliseconds(depth))
        await nested(clock, depth: depth - 1)
        try? await clock.sleep(for: .milliseconds(1))
    }

    /// Steps of a run whose root spawns `nested` through a tracker (preferring the simulator's
    /// task executor or not) and waits for it, or runs it in a task-group child instead.
    private static func steps(_ how: How, seed: UInt64) -> UInt64 {
        let result = Simulation.run(SimulationConfiguration(seed: seed)) {
            let clock = SimClock()
            switch how {
            case .tracker(let preferring):
                let tracker = TaskTracker(taskExecutor: preferring ? Simulation.taskExecutor : nil)
                tracker.spawn { await nested(clock, depth: 8) }
                await tracker.waitUntilIdle()
            case .child:
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await nested(clock, depth: 8) }
                }
            }
        }
        #expect(result.outcome == .finished)
        return result.steps
    }

    private enum How { case tracker(preferring: Bool), child }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func spawnedTasksPreferringTheSimulatorCostNoStepsBetweenNonisolatedCalls(seed: UInt64) {
        let preferring = Self.steps(.tracker(preferring: true), seed: seed)
        let plain = Self.steps(.tracker(preferring: false), seed: seed)
        let child = Self.steps(.child, seed: seed)
        // 16 sleeps: one wake-up step each, as for a child task of the root (which inherits the
        // preference); the waiting root and the group add the same few steps either way.
        #expect(preferring == child)
        #expect(plain >= preferring + 16, "a plain Task {} pays a step per nonisolated return")
    }

    @Test func simulatedEnvironmentsHandTheTaskExecutorToTheBackend() throws {
        let inside = try onSimulator(seed: 1) { env in env.taskExecutor != nil }
        #expect(inside)
        #expect(Simulation.taskExecutor == nil, "no simulation runs on this thread now")
    }
}
