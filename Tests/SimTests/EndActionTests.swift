import Testing
@testable import Sim

/// `Simulation.atEnd`: actions run once when a run ends, outside it, in registration order, and
/// can free what the run's leftover tasks would otherwise keep alive.
@Suite struct EndActionTests {
    /// A pair of objects that point at each other: freed only if something breaks the cycle.
    final class Node: @unchecked Sendable {
        var other: Node?
    }

    final class Log: @unchecked Sendable {
        var entries: [String] = []
    }

    @Test func actionsRunOnceAfterTheRunOutsideItInOrder() {
        let log = Log()
        let result = Simulation.run(SimulationConfiguration(seed: 1)) {
            Simulation.atEnd { log.entries.append("first active=\(Simulation.isActive)") }
            try await SimClock().sleep(for: .seconds(1))
            Simulation.atEnd { log.entries.append("second") }
            log.entries.append("root done")
        }
        #expect(result.outcome == .finished)
        #expect(log.entries == ["root done", "first active=false", "second"])
    }

    /// PCT's measuring run is a run of its own: its actions run when it ends, before the real run.
    @Test func eachRunOfAPCTSeedRunsItsOwnActions() {
        let log = Log()
        let result = Simulation.run(SimulationConfiguration(seed: 7, strategy: .pct(depth: 2, horizon: nil))) {
            log.entries.append("root")
            Simulation.atEnd { log.entries.append("end") }
        }
        #expect(result.outcome == .finished)
        #expect(log.entries == ["root", "end", "root", "end"])
    }

    /// Where a test keeps weak references to objects built inside a run.
    final class Watch: @unchecked Sendable {
        weak var a: Node?
        weak var b: Node?
    }

    /// A cycle built in a run: the run's end action breaks it and both objects are freed once the
    /// run returns; without the action they outlive it (the leak `ScenarioContext.backend` closes
    /// with `Backend.terminate`).
    @Test(arguments: [true, false]) func anEndActionFreesACycle(breaksCycle: Bool) {
        let watch = Watch()
        let result = Simulation.run(SimulationConfiguration(seed: 3)) {
            let a = Node(), b = Node()
            a.other = b
            b.other = a
            watch.a = a
            watch.b = b
            if breaksCycle { Simulation.atEnd { a.other = nil } }
        }
        #expect(result.outcome == .finished)
        #expect((watch.a == nil) == breaksCycle)
        #expect((watch.b == nil) == breaksCycle)
        watch.a?.other = nil  // frees the deliberately leaked pair
    }
}
