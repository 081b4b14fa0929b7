import Sim

/// The kernel's own racing workload, used by `rehearse selfcheck` and the kernel's tests:
/// `bidders` actors each read an auction actor, think for a random virtual time, and bid, three
/// times over, so the outcome depends on the interleaving and on the seed.
public enum KernelWorkload {
    /// Runs the race inside the current simulation; returns "winner:highest:accepted-order-hash".
    public static func auctionRace(bidders: Int = 50, rounds: Int = 3) async throws -> String {
        let auction = RaceAuction()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<bidders {
                let bidder = RaceBidder(id: id)
                group.addTask { try await bidder.run(on: auction, rounds: rounds) }
            }
            try await group.waitForAll()
        }
        return await auction.summary()
    }
}

/// The contended actor of `KernelWorkload`: a read–think–write race on the highest bid.
actor RaceAuction: SimActor {
    nonisolated let simExecutor = SimExecutor("auction")
    private var highest = 0
    private var winner = -1
    private var orderHash = TraceHash()

    func read() -> Int { highest }

    func write(_ amount: Int, by bidder: Int) {
        if amount > highest {
            highest = amount
            winner = bidder
        }
        orderHash.mix(UInt64(bidder))
        Simulation.record("bid \(bidder) \(amount)")
    }

    func summary() -> String { "\(winner):\(highest):\(orderHash)" }
}

/// One bidder of `KernelWorkload`.
actor RaceBidder: SimActor {
    nonisolated let simExecutor: SimExecutor
    private let id: Int
    private var random: SimRandom

    init(id: Int) {
        self.id = id
        self.simExecutor = SimExecutor("bidder/\(id)")
        self.random = Simulation.random("bidder/\(id)")
    }

    func run(on auction: RaceAuction, rounds: Int) async throws {
        for _ in 0..<rounds {
            let seen = await auction.read()
            try await SimClock().sleep(for: .milliseconds(random.below(200)))
            await auction.write(seen + 1 + random.below(10), by: id)
        }
    }
}

extension KernelWorkload {
    /// Two tasks take two `SimMutex`es in opposite orders with `steps` scheduling points between
    /// (the PCT paper's Figure 1c): a preemption between the two acquisitions deadlocks the run.
    /// `rehearse bench` times it over many seeds: a deadlock must cost kernel time, not a wait.
    public static func lockOrderInversion(steps: Int = 4) async {
        let first = SimMutex("A"), second = SimMutex("B")
        await withTaskGroup(of: Void.self) { group in
            for (name, outer, inner) in [("t1", first, second), ("t2", second, first)] {
                group.addTask {
                    for _ in 0..<steps { await Simulation.point() }
                    await outer.lock(as: name)
                    for _ in 0..<steps { await Simulation.point() }
                    await inner.lock(as: name)
                    inner.unlock()
                    outer.unlock()
                }
            }
        }
    }
}
