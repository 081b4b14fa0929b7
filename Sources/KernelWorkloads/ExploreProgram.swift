import Sim

/// A small published concurrency program ported to `Sim`, with its known bug: what
/// `Simulation.explore` is measured on (`rehearse bench --explore`, SimTests' ExploreTests).
/// Each `Simulation.point()` stands for one instruction of the original (a shared access), as
/// shuttle's ports stand for them with `thread::yield_now()`; a run returns true when it hit the
/// bug (a deadlock is a failing outcome of its own).
public struct ExploreProgram: Sendable {
    /// The program's name in tables and test names.
    public let name: String
    /// Where it comes from.
    public let source: String
    /// The fewest preemptions (non-default decisions) a failing schedule needs; nil: the program is correct.
    public let bugPreemptions: Int?
    /// How many jobs the children run (each is one step of a naive interleaving count).
    public let jobsPerTask: [Int]
    /// One run: true when the bug showed.
    public let run: @Sendable () async -> Bool

    /// The naive number of interleavings of the children's jobs (the multinomial of `jobsPerTask`).
    public var naiveInterleavings: Double {
        var total = 0.0, count = 1.0
        for jobs in jobsPerTask {
            for index in 1...max(1, jobs) where jobs > 0 {
                total += 1
                count *= total / Double(index)
            }
        }
        return count
    }

    /// Every program, buggy and fixed, in the order the measurement table prints them.
    public static let all: [ExploreProgram] = [
        figure1a, figure1b, figure1c, figure1cOrdered, figure5, alternation,
        accountBad, wronglockBad, wronglockFixed, lostUpdate, threeBuyersOversold, threeBuyersOversoldTwice, threeBuyersFixed,
        sixIncrementers,
    ]

    /// `count` scheduling points.
    static func steps(_ count: Int) async { for _ in 0..<count { await Simulation.point() } }
}

/// Shared memory of a ported program: touched only on the simulation's thread, between scheduling points.
final class ProgramMemory: @unchecked Sendable {
    var x: Int? = nil
    var balance = 0
    var depositDone = false
    var withdrawDone = false
    var order: [String] = []
}

extension ExploreProgram {
    /// Runs `bodies` as the children of a task group; true when any of them reports the bug.
    static func group(_ bodies: [@Sendable () async -> Bool]) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            for body in bodies { group.addTask { await body() } }
            var hit = false
            for await result in group where result { hit = true }
            return hit
        }
    }

    /// PCT paper (Burckhardt et al., ASPLOS 2010) Figure 1a: t2 uses `x` before t1 initialises it.
    public static let figure1a = ExploreProgram(
        name: "figure1a", source: "PCT paper, Figure 1a (depth 1)", bugPreemptions: 1, jobsPerTask: [11, 11]
    ) {
        let memory = ProgramMemory()
        return await group([
            { await steps(5); memory.x = 1; await steps(5); return false },
            { await steps(5); let missing = memory.x == nil; await steps(5); return missing },
        ])
    }

    /// PCT paper Figure 1b: t2 checks `x != nil`, t1 clears it, t2 uses it (depth 2).
    public static let figure1b = ExploreProgram(
        name: "figure1b", source: "PCT paper, Figure 1b (depth 2)", bugPreemptions: 2, jobsPerTask: [10, 10]
    ) {
        let memory = ProgramMemory()
        memory.x = 1
        return await group([
            { await steps(5); memory.x = nil; await steps(4); return false },
            {
                await steps(4)
                let present = memory.x != nil
                await Simulation.point()
                let crashed = present && memory.x == nil
                await steps(4)
                return crashed
            },
        ])
    }

    /// Two tasks, two locks taken in `reversed` orders (PCT paper Figure 1c, depth 2: a deadlock).
    static func locks(reversed: Bool) async -> Bool {
        let a = SimMutex("A"), b = SimMutex("B")
        let second = reversed ? [b, a] : [a, b]
        return await group([
            { await steps(4); await a.lock(as: "t1"); await steps(4); await b.lock(as: "t1"); await steps(4); b.unlock(); a.unlock(); return false },
            {
                await steps(4); await second[0].lock(as: "t2"); await steps(4); await second[1].lock(as: "t2"); await steps(4)
                second[1].unlock(); second[0].unlock(); return false
            },
        ])
    }

    /// PCT paper Figure 1c: locks in opposite orders deadlock.
    public static let figure1c = ExploreProgram(
        name: "figure1c", source: "PCT paper, Figure 1c (depth 2, a deadlock)", bugPreemptions: 1, jobsPerTask: [15, 15]
    ) { await locks(reversed: true) }

    /// Figure 1c fixed: both tasks take A then B.
    public static let figure1cOrdered = ExploreProgram(
        name: "figure1c-ordered", source: "Figure 1c with one lock order (correct)", bugPreemptions: nil, jobsPerTask: [15, 15]
    ) { await locks(reversed: false) }

    /// PCT paper Figure 5: the bug needs t1's 20 steps before main reads (depth 1).
    public static let figure5 = ExploreProgram(
        name: "figure5", source: "PCT paper, Figure 5 (depth 1)", bugPreemptions: 1, jobsPerTask: [21, 1]
    ) {
        let memory = ProgramMemory()
        let t1 = Simulation.spawn("t1") { await steps(20); memory.x = 1 }
        await Simulation.point()
        let ranToCompletion = memory.x == 1
        await t1.value
        return ranToCompletion
    }

    /// The alternation a1 < b1 < a2 < b2 (depth 3).
    public static let alternation = ExploreProgram(
        name: "alternation", source: "a1 b1 a2 b2 (PCT depth 3)", bugPreemptions: 2, jobsPerTask: [2, 2]
    ) {
        let memory = ProgramMemory()
        _ = await group([
            { memory.order.append("a1"); await Simulation.point(); memory.order.append("a2"); return false },
            { memory.order.append("b1"); await Simulation.point(); memory.order.append("b2"); return false },
        ])
        return memory.order == ["a1", "b1", "a2", "b2"]
    }
}
