import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

/// A KNB bidder's client behaviour, shared by `auction-race` and its load profile: read the
/// honor, outbid it (a double tap sends the bid twice), retry a lost race with a fresh read.
enum KNBBidding {
    /// How long the careful app keeps a contended bid pending before it tells its user the bid
    /// failed (ABORTED): four rounds of the SDK's five attempts take at least 16 s of backoff,
    /// one round at most 12.2 s. Giving up sooner loses a bid a little more patience would have
    /// placed; a bid still refused after it met contention (or an outage) no retry outlasts.
    static let patience: Duration = .seconds(15)

    /// One bid as a user places it: up to 3 rounds of read → bid while the bid loses a race (too
    /// low). Returns true when a bid was accepted or there was nothing to bid on (sold, already
    /// winning, the price reached); false when every round lost or the bid failed.
    @discardableResult
    static func placeBid(
        _ bidder: KNBClient, honorId: String, increment: Double, raiseOwn: Bool, doubleTap: Bool, buyNowPrice: Double,
        retry: ClientRetry, backend: Backend, observer: some ClientObserver
    ) async -> Bool {
        var placed = false
        let clock = backend.env.clock
        for _ in 0..<3 {  // a lost race (bid too low) is retried with a fresh read, up to 3 times
            guard let honor = try? await retry(attempts: 3, { try await bidder.firestore.get(DocumentPath("honors", honorId)) }),
                  let fields = honor.fields else { break }
            if fields["isSold"] == .bool(true) { observer.note(bidder.email, "sees \(honorId) sold"); placed = true; break }
            if fields["currentWinnerEmail"]?.stringValue == bidder.email && !raiseOwn { placed = true; break }
            let amount = (fields["currentBid"]?.doubleValue ?? 0) + increment
            guard amount < buyNowPrice else { placed = true; break }
            observer.note(bidder.email, rendering: { "bid \(honorId) \(Int(amount))" })
            let attempt: @Sendable () async -> (result: Result<String, any Error>, waited: Duration) = {
                let sent = clock.now
                do {
                    let id = try await retry { try await bidder.placeBid(honorId: honorId, amount: amount) }
                    return (.success(id), clock.now - sent)
                } catch {
                    return (.failure(error), clock.now - sent)
                }
            }
            var results: [(result: Result<String, any Error>, waited: Duration)] = []
            if doubleTap {
                async let first = attempt()
                async let second = attempt()
                results = [await first, await second]
            } else {
                results = [await attempt()]
            }
            // A tap that succeeded, or whose outcome the app could not tell, may be the bid that landed.
            let confirmed = results.contains { result in
                switch result.result {
                case .success: true
                case .failure(let error): if case KNBError.bidOutcomeUnknown = error { true } else { false }
                }
            }
            var lostRace = false
            for (result, waited) in results {
                guard case .failure(let error) = result else { placed = true; continue }
                if case KNBError.bidTooLow = error { lostRace = true; observer.sometimes(AuctionRaceScenario.Check.bidTooLow, true) }
                if case KNBError.backend(.aborted(let reason)) = error {
                    judgeAborted(
                        "bid", by: bidder.email, amount: amount, honorId: honorId, reason: reason, waited: waited, confirmed: confirmed,
                        firestore: backend.firestore, observer: observer)
                }
                observer.note(bidder.email, rendering: { "bid failed: \(error)" })
            }
            observer.always(AuctionRaceScenario.Check.bidNotLost, true, "")
            if !lostRace || placed { break }
        }
        return placed
    }

    /// `bid-not-lost` for a bid (`what`: "bid", "snipe") the app gave up on with ABORTED after
    /// `waited`: lost if the app gave up within `patience`; else the user was told it failed, so
    /// unless another tap of it was `confirmed`, it must not have landed in the honor's bids.
    static func judgeAborted(
        _ what: String, by bidder: String, amount: Double, honorId: String, reason: AbortReason, waited: Duration, confirmed: Bool,
        firestore: Firestore, observer: some ClientObserver
    ) {
        let seconds = Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
        let after = "ABORTED \(reason) after \((seconds * 10).rounded() / 10) s"
        guard waited >= patience else {
            observer.always(AuctionRaceScenario.Check.bidNotLost, false,
                            "\(bidder)'s \(what) of \(amount) on \(honorId) was lost: \(after), within the \(patience) a contended bid is kept")
            return
        }
        let bids = firestore.liveFields(DocumentPath("honors", honorId))?["bids"]?.arrayValue ?? []
        let landed = bids.contains { $0.mapValue?["bidderEmail"]?.stringValue == bidder && $0.mapValue?["amount"]?.doubleValue == amount }
        observer.always(AuctionRaceScenario.Check.bidNotLost, confirmed || !landed,
                        "\(bidder) was told their \(what) of \(amount) on \(honorId) failed (\(after)), but it landed")
        observer.note(bidder, "\(what) given up: \(after)")
    }
}
