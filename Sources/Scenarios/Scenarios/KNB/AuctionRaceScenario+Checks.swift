import FirebaseHarness
import Harness
import SimulatedFirebase

extension AuctionRaceScenario {
    /// The checks this scenario makes, as values: call sites name them, so a typo does not compile
    /// (it would otherwise be a check that is silently never evaluated).
    enum Check {
        static let bidsStrictlyIncreasing = CheckDeclaration(
            .always, "bids-strictly-increasing", "each honor's bids rise strictly and have unique ids", operations: AuctionRaceScenario.bidOperations)
        static let winnerIsHighestBidder = CheckDeclaration(
            .always, "winner-is-highest-bidder", "currentBid/currentWinner equal the last (highest) bid", operations: AuctionRaceScenario.bidOperations)
        static let noBidAfterSold = CheckDeclaration(
            .always, "no-bid-after-sold", "a sold honor's last bid is its Buy Now; nothing follows it", operations: AuctionRaceScenario.bidOperations)
        static let oneNewBidPerUpdate = CheckDeclaration(
            .always, "one-new-bid-per-update", "every committed update appends at most one bid and keeps the earlier ones", operations: AuctionRaceScenario.bidOperations)
        static let bidNotLost = CheckDeclaration(
            .always, "bid-not-lost", "a bid fails only for a business reason, or ABORTED once the app kept it 15 s, and then did not land", operations: AuctionRaceScenario.bidOperations)
        static let outbidToPreviousWinner = CheckDeclaration(
            .always, "outbid-to-previous-winner", "an OUTBID goes to the bid's previous winner, never to the bidder", operations: AuctionRaceScenario.bidOperations)
        static let outbidOncePerBid = CheckDeclaration(
            .always, "outbid-once-per-bid", "at most one OUTBID push per bid and token", operations: AuctionRaceScenario.bidOperations)
        static let outbidForEveryOvertakenWinner = CheckDeclaration(
            .eventually, "outbid-for-every-overtaken-winner", "each overtaken winner got an OUTBID notification for that bid", operations: AuctionRaceScenario.bidOperations)
        static let totalPledgedConsistent = CheckDeclaration(
            .eventually, "total-pledged-consistent", "users' totalPledged = sum of the honors they currently win", operations: AuctionRaceScenario.bidOperations)
        static let bidderNamesCurrent = CheckDeclaration(
            .eventually, "bidder-names-current", "every bid's bidderName (and currentWinner) is the bidder's latest chosen name",
            requires: [.atLeast(Parameter.renamePercent, 1)], operations: AuctionRaceScenario.bidOperations + ["rename"])
        static let bidTooLow = CheckDeclaration(
            .sometimes, "bid-too-low", "a bid lost a race and was rejected as too low")
        static let outbidSent = CheckDeclaration(
            .sometimes, "outbid-sent", "an OUTBID push was sent")
        static let soldByBuyNow = CheckDeclaration(
            .sometimes, "sold-by-buy-now", "an honor was sold by Buy Now", requires: [.atLeast(Parameter.buyNow, 1)])
        static let snipeLanded = CheckDeclaration(
            .sometimes, "snipe-landed", "a sniper's blind bid was accepted", requires: [.atLeast(Parameter.sniperPercent, 1)])
    }
}
