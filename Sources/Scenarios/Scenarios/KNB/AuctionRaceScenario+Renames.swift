import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

extension AuctionRaceScenario {
    /// Attempts at a name change before it is retried with longer waits (an idempotent write,
    /// retried past transient faults so the scenario's record and the user document agree).
    static let renameAttempts = 10

    /// When bidder `index` changes their name: none unless `renamePercent` picks them (its own
    /// stream, so runs without renames draw nothing extra); else `renamesPerRenamer` instants
    /// timed like bids, close burst included, so a rename's propagation meets bids in flight.
    static func renameInstants(index: Int, origin: UInt64, context: ScenarioContext) -> [UInt64] {
        let p = context.parameters
        guard p[Parameter.renamePercent] > 0 else { return [] }
        var random = Simulation.random("auction/rename-\(index)")
        guard random.below(100) < p[Parameter.renamePercent] else { return [] }
        return KNBScenarioSupport.arrivals(
            count: p[Parameter.renamesPerRenamer], durationSeconds: p[Parameter.durationSeconds], burstPercent: p[Parameter.burstPercent],
            random: &random, origin: origin)
    }

    /// Changes the bidder's name at each pending instant before `deadline`, in order (the
    /// bidder's one device does one thing at a time: no bid of theirs is in flight meanwhile).
    static func rename(_ bidder: KNBClient, before deadline: UInt64, pending: inout [UInt64], names: NameBook, context: ScenarioContext) async {
        while let next = pending.first, next <= deadline {
            pending.removeFirst()
            await KNBScenarioSupport.sleep(until: next)
            if context.isStopped { return }
            let newName = "\(bidder.name)+"
            names.chose(bidder.email, newName)
            context.note(bidder.email, "rename \(newName)")
            do {
                // Kept pending until it gets through, as the SDK keeps a write queued through an outage.
                try await KNBScenarioSupport.persistently(attempts: renameAttempts) { try await bidder.changeName(newName) }
            } catch {
                names.chose(bidder.email, bidder.name)  // told the change failed: the name the app settled on
                context.note(bidder.email, "rename failed: \(error)")
            }
        }
    }

    /// An update keeps the earlier bids: the same bids, except that a bidder's name may change
    /// (`onUserUpdate`); ids, amounts, bidders and order never do.
    static func keepsEarlierBids(_ before: ValueArray, _ after: ValueArray) -> Bool {
        guard after.count >= before.count else { return false }
        // Element by element, not `ValueArray.isPrefix` (whose shortcut is the one under check).
        if after.prefix(before.count).elementsEqual(before) { return true }
        return zip(before, after).allSatisfy { old, new in
            guard var old = old.mapValue, var new = new.mapValue else { return old == new }
            old["bidderName"] = nil
            new["bidderName"] = nil
            return old == new
        }
    }

    /// Renames still pending (their answers lost) are sent again until acknowledged, as the app
    /// does while it runs (the SDK keeps such a write queued until it gets through); one still
    /// pending after four hours is settled by the profile (`NameBook`).
    static func settlePendingNames(_ bidders: [KNBClient], _ names: NameBook, _ app: KNBApp) async {
        for bidder in bidders where bidder.hasPendingName {
            // Every 30 s for up to 4 hours: a drawn outage lasts 2 hours at most.
            for _ in 0..<480 where !(await bidder.settleName()) {
                await ScenarioSupport.sleep(milliseconds: 30_000)
            }
            if bidder.hasPendingName { names.chose(bidder.email, nil) }
        }
        await app.backend.waitUntilIdle()
    }

    /// Once quiescent, every bid carries its bidder's latest chosen name, and every honor's
    /// `currentWinner` its winner's.
    static func checkNames(_ app: KNBApp, _ names: NameBook, _ context: ScenarioContext) {
        guard !context.isStopped else { return }
        for honor in app.backend.firestore.query("honors") {
            for bid in (honor["bids"]?.arrayValue ?? []).compactMap(\.mapValue) {
                guard let email = bid["bidderEmail"]?.stringValue, let expected = names.name(of: email, in: app.backend.firestore) else { continue }
                let name = bid["bidderName"]?.stringValue ?? "-"
                context.eventually(Check.bidderNamesCurrent, name == expected,
                                   "\(honor.path.id) bid \(bid["id"]?.stringValue ?? "?") by \(email) says '\(name)', but they are '\(expected)'")
            }
            if let winner = honor["currentWinnerEmail"]?.stringValue, let expected = names.name(of: winner, in: app.backend.firestore) {
                let name = honor["currentWinner"]?.stringValue ?? "-"
                context.eventually(Check.bidderNamesCurrent, name == expected,
                                   "\(honor.path.id) currentWinner '\(name)' for \(winner), who is '\(expected)'")
            }
        }
    }
}
