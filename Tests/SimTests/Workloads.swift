import Sim

/// An auction with a read–sleep–write race: a bidder reads the highest bid, "thinks", and writes.
actor RacyAuction: SimActor {
    nonisolated let simExecutor = SimExecutor("auction")
    private(set) var highest = 0
    private(set) var winner = -1
    private(set) var accepted: [Int] = []

    func read() -> Int { highest }

    func write(_ amount: Int, by bidder: Int) {
        if amount > highest {
            highest = amount
            winner = bidder
        }
        accepted.append(bidder)
        Simulation.record("bid \(bidder) \(amount)")
    }
}

/// A bidder actor: reads, sleeps a random think time on the virtual clock, then bids.
actor Bidder: SimActor {
    nonisolated let simExecutor: SimExecutor
    let id: Int
    var random: SimRandom

    init(id: Int) {
        self.id = id
        self.simExecutor = SimExecutor("bidder/\(id)")
        self.random = Simulation.random("bidder/\(id)")
    }

    func run(on auction: RacyAuction) async throws {
        for _ in 0..<3 {
            let seen = await auction.read()
            try await SimClock().sleep(for: .milliseconds(random.below(200)))
            await auction.write(seen + 1 + random.below(10), by: id)
        }
    }
}

/// The kernel's racing workload: `bidders` actors bidding on one auction, with sleeps.
func racingWorkload(bidders: Int = 50) async throws -> String {
    let auction = RacyAuction()
    try await withThrowingTaskGroup(of: Void.self) { group in
        for id in 0..<bidders {
            let bidder = Bidder(id: id)
            group.addTask { try await bidder.run(on: auction) }
        }
        try await group.waitForAll()
    }
    return "\(await auction.winner):\(await auction.highest)"
}
