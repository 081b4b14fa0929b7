import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

/// A KNB bidder's client behaviour, shared by `auction-race` and its load profile: read the
/// honor, outbid it (a double tap sends the bid twice), retry a lost race with a fresh read.
enum KNBBidding {
    /// One bid as a user places it: up to 3 rounds of read → bid while the bid loses a race (too
    /// low). Returns true when a bid was accepted or there was nothing to bid on (sold, already
    /// winning, the price reached); false when every round lost or the bid failed.
    @discardableResult
    static func placeBid(
        _ bidder: KNBClient, honorId: String, increment: Double, raiseOwn: Bool, doubleTap: Bool, buyNowPrice: Double,
        retry: ClientRetry, observer: some ClientObserver
    ) async -> Bool {
        var placed = false
        for _ in 0..<3 {  // a lost race (bid too low) is retried with a fresh read, up to 3 times
            guard let honor = try? await retry(attempts: 3, { try await bidder.firestore.get(DocumentPath("honors", honorId)) }),
                  let fields = honor.fields else { break }
            if fields["isSold"] == .bool(true) { observer.note(bidder.email, "sees \(honorId) sold"); placed = true; break }
            if fields["currentWinnerEmail"]?.stringValue == bidder.email && !raiseOwn { placed = true; break }
            let amount = (fields["currentBid"]?.doubleValue ?? 0) + increment
            guard amount < buyNowPrice else { placed = true; break }
            observer.note(bidder.email, rendering: { "bid \(honorId) \(Int(amount))" })
            let attempt: @Sendable () async -> Result<String, any Error> = {
                do { return .success(try await retry { try await bidder.placeBid(honorId: honorId, amount: amount) }) } catch { return .failure(error) }
            }
            var results: [Result<String, any Error>] = []
            if doubleTap {
                async let first = attempt()
                async let second = attempt()
                results = [await first, await second]
            } else {
                results = [await attempt()]
            }
            var lostRace = false
            for result in results {
                guard case .failure(let error) = result else { placed = true; continue }
                if case KNBError.bidTooLow = error { lostRace = true; observer.sometimes(AuctionRaceScenario.Check.bidTooLow, true) }
                if case KNBError.backend(.aborted(let reason)) = error {
                    observer.always(AuctionRaceScenario.Check.bidNotLost, false, "\(bidder.email)'s bid of \(amount) on \(honorId) was lost: ABORTED \(reason)")
                }
                observer.note(bidder.email, rendering: { "bid failed: \(error)" })
            }
            observer.always(AuctionRaceScenario.Check.bidNotLost, true, "")
            if !lostRace || placed { break }
        }
        return placed
    }
}
