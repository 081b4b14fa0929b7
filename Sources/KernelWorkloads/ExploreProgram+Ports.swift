import Sim

extension ExploreProgram {
    /// SCTBench `CS/account_bad` (Thomson, Donaldson & Betts, PPoPP 2014): deposit, withdraw and
    /// a checker under one mutex; the checker, created first, asserts the wrong balance once both
    /// ran, so the bug needs it to run last.
    public static let accountBad = ExploreProgram(
        name: "account_bad", source: "SCTBench CS/account_bad", bugPreemptions: 1, jobsPerTask: [4, 5, 5]
    ) {
        let memory = ProgramMemory()
        let (x, y, z) = (1, 2, 4)
        memory.balance = x
        let m = SimMutex("m")
        return await group([
            {
                await m.lock(as: "check_result")
                await Simulation.point()
                let wrong = memory.depositDone && memory.withdrawDone && memory.balance != (x - y) - z
                m.unlock()
                return wrong
            },
            {
                await m.lock(as: "deposit")
                let read = memory.balance
                await Simulation.point()
                memory.balance = read + y
                await Simulation.point()
                memory.depositDone = true
                m.unlock()
                return false
            },
            {
                await m.lock(as: "withdraw")
                let read = memory.balance
                await Simulation.point()
                memory.balance = read - z
                await Simulation.point()
                memory.withdrawDone = true
                m.unlock()
                return false
            },
        ])
    }

    /// SCTBench `CS/wronglock_bad`: funcA increments under `dataLock`, three funcB threads under
    /// `thisLock`, so a B increment between A's read and its check breaks A's assertion.
    public static let wronglockBad = ExploreProgram(
        name: "wronglock_bad", source: "SCTBench CS/wronglock_bad (1 A, 3 B)", bugPreemptions: 1, jobsPerTask: [5, 4, 4, 4]
    ) { await wronglock(sameLock: false) }

    /// wronglock with one lock for both (correct).
    public static let wronglockFixed = ExploreProgram(
        name: "wronglock-fixed", source: "wronglock_bad with one lock (correct)", bugPreemptions: nil, jobsPerTask: [5, 4, 4, 4]
    ) { await wronglock(sameLock: true) }

    static func wronglock(sameLock: Bool) async -> Bool {
        let memory = ProgramMemory()
        let dataLock = SimMutex("dataLock")
        let thisLock = sameLock ? dataLock : SimMutex("thisLock")
        let funcA: @Sendable () async -> Bool = {
            await dataLock.lock(as: "funcA")
            let x = memory.balance
            await Simulation.point()
            memory.balance += 1
            await Simulation.point()
            let broken = memory.balance != x + 1
            dataLock.unlock()
            return broken
        }
        let funcB: @Sendable () async -> Bool = {
            await thisLock.lock(as: "funcB")
            let read = memory.balance
            await Simulation.point()
            memory.balance = read + 1
            thisLock.unlock()
            return false
        }
        return await group([funcA, funcB, funcB, funcB])
    }

    /// Two tasks each add 1 twice to a counter actor by reading, then writing (an await between):
    /// a lost update needs one task's read between the other's read and write.
    public static let lostUpdate = ExploreProgram(
        name: "lost-update", source: "read-then-write counter actor, 2 tasks x 2 increments", bugPreemptions: 1, jobsPerTask: [5, 5]
    ) {
        let counter = ProgramCounter()
        _ = await group([
            { for _ in 0..<2 { let seen = await counter.read(); await counter.write(seen + 1) }; return false },
            { for _ in 0..<2 { let seen = await counter.read(); await counter.write(seen + 1) }; return false },
        ])
        return await counter.read() != 4
    }


    /// Six tasks add 1 five times each in one actor call (correct): where the search stops being
    /// practical, as the schedules grow with the number of choice points.
    public static let sixIncrementers = ExploreProgram(
        name: "six-incrementers", source: "6 tasks x 5 atomic increments (correct; growth)", bugPreemptions: nil,
        jobsPerTask: [10, 10, 10, 10, 10, 10]
    ) {
        let counter = ProgramCounter()
        _ = await group((0..<6).map { _ in { for _ in 0..<5 { await counter.increment() }; return false } })
        return await counter.read() != 30
    }
}

/// A counter actor read and written in two calls (the lost-update shape), or incremented in one.
actor ProgramCounter: SimActor {
    nonisolated let simExecutor = SimExecutor("counter")
    var value = 0
    func read() -> Int { value }
    func write(_ newValue: Int) { value = newValue }
    func increment() { value += 1 }
}
