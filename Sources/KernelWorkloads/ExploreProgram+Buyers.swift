import Sim

/// The seats on sale: one actor.
actor SeatStock: SimActor {
    nonisolated let simExecutor = SimExecutor("seats")
    var left: Int
    init(_ seats: Int) { left = seats }
    func available() -> Bool { left > 0 }
    func take() { left -= 1 }
    /// Check and take in one turn of the actor (the fix).
    func takeIfAvailable() -> Bool {
        guard left > 0 else { return false }
        left -= 1
        return true
    }
}

/// A buyer actor: counts its attempts and tickets, checks, then takes, across an await (or in one
/// call when `atomic`). It touches its own state around each call: an actor method that touches
/// none is compiled without hopping to its actor (the hop is elided), so it would be no step.
actor Buyer: SimActor {
    nonisolated let simExecutor: SimExecutor
    var attempts = 0
    var decided = 0
    var tickets = 0
    init(_ name: String) { simExecutor = SimExecutor(name) }
    func buy(from seats: SeatStock, atomic: Bool) async {
        attempts += 1
        if atomic {
            if await seats.takeIfAvailable() { tickets += 1 }
        } else if await seats.available() {
            decided += 1
            await seats.take()
            tickets += 1
        }
    }
}

extension ExploreProgram {
    /// Three buyer actors race for one seat; true when `left` ends below `floor`.
    static func threeBuyers(atomic: Bool, floor: Int) async -> Bool {
        let seats = SeatStock(1)
        let buyers = (1...3).map { Buyer("buyer-\($0)") }
        _ = await group(buyers.map { buyer in { await buyer.buy(from: seats, atomic: atomic); return false } })
        return await seats.left < floor
    }

    /// Three buyers, one seat, check-then-take across an await: the seat is sold twice.
    public static let threeBuyersOversold = ExploreProgram(
        name: "three-buyers", source: "3 buyer actors, 1 seat: oversold (PCT depth 2)", bugPreemptions: 1, jobsPerTask: [7, 7, 7]
    ) { await threeBuyers(atomic: false, floor: 0) }

    /// The same program, judged on selling the seat three times.
    public static let threeBuyersOversoldTwice = ExploreProgram(
        name: "three-buyers-x3", source: "3 buyer actors, 1 seat: sold three times (PCT depth 3)", bugPreemptions: 2, jobsPerTask: [7, 7, 7]
    ) { await threeBuyers(atomic: false, floor: -1) }

    /// Check and take in one actor turn (correct).
    public static let threeBuyersFixed = ExploreProgram(
        name: "three-buyers-fixed", source: "3 buyer actors, check and take in one turn (correct)", bugPreemptions: nil, jobsPerTask: [5, 5, 5]
    ) { await threeBuyers(atomic: true, floor: 0) }
}
