import FirebaseHarness
import Harness
import SimulatedFirebase

extension AuctionRaceScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.bidders }

    /// Raises of at most 3,000 a bid stay below the Buy Now price; the sniping window fits in the auction.
    public var constraints: [ParameterConstraint] {
        [.productBelow([Parameter.bidders, Parameter.bidsPerBidder], 334), .atMost(Parameter.sniperWindowMilliseconds, Parameter.durationSeconds, times: 1_000)]
    }

    enum Parameter {
        static let bidders = ScenarioParameter(
            "bidders", "users bidding", default: 12, in: 2...60, cost: .linear)
        static let honors = ScenarioParameter(
            "honors", "honors on auction", default: 1, in: 1...10, cost: .linear)
        static let bidsPerBidder = ScenarioParameter(
            "bidsPerBidder", "bids each bidder intends to place", default: 6, in: 1...50, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "auction length (virtual seconds)", default: 60, in: 10...86_400, notable: [60, 3_600], cost: .linear)
        static let burstPercent = ScenarioParameter(
            "burstPercent", "share of bids arriving in the last tenth (close burst)", default: 80, in: 0...100)
        static let buyNow = ScenarioParameter(
            "buyNow", "1: one user presses Buy Now mid-race on the first honor", default: 1, in: 0...1)
        static let buyNowAtPercent = ScenarioParameter(
            "buyNowAtPercent", "when Buy Now is pressed, in % of the auction (95: inside the close burst)", default: 95, in: 0...100)
        static let snipePercent = ScenarioParameter(
            "snipePercent", "share of close-burst bids that are snipes (raise by up to 1000)", default: 60, in: 0...100)
        static let raiseOwnPercent = ScenarioParameter(
            "raiseOwnPercent", "chance a winning bidder raises their own bid", default: 15, in: 0...100)
        static let doubleTapPercent = ScenarioParameter(
            "doubleTapPercent", "chance a bid is sent twice (double tap)", default: 10, in: 0...100)
        static let duplicatePercent = ScenarioParameter(
            "duplicatePercent", "trigger events delivered twice (MODEL_RULES §9: 5 % under stress)", default: 5, in: 0...100)
        static let sniperPercent = ScenarioParameter(
            "sniperPercent", "share of bidders who also run a sniping bot: it reads once, then fires blind bids in the last seconds", default: 0, in: 0...100)
        static let snipesPerSniper = ScenarioParameter(
            "snipesPerSniper", "bids each sniper fires in the sniping window", default: 3, in: 1...20, cost: .linear)
        static let sniperWindowMilliseconds = ScenarioParameter(
            "sniperWindowMilliseconds", "the sniping window before the close", default: 2_000, in: 100...60_000, notable: [1_000])
        static let renamePercent = ScenarioParameter(
            "renamePercent", "share of bidders who change their name during the auction (deploys onUserUpdate; 0 keeps the function undeployed and earlier seeds' traces)", default: 0, in: 0...100)
        static let renamesPerRenamer = ScenarioParameter(
            "renamesPerRenamer", "name changes of each renaming bidder, timed like their bids (close burst included)", default: 2, in: 1...10, cost: .linear)
    }
}
