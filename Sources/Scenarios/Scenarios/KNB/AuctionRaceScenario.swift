import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase
import Synchronization

/// KNB honors auction: N bidders on M honors, bursts near the close, a Buy Now mid-race.
public struct AuctionRaceScenario: FirebaseScenario {
    /// The scenario with its documented defaults (parameters come with each run).
    public init() {}
    /// What `rehearse load` runs for this scenario.
    public var loadProfile: LoadProfile? { .auctionRace }
    /// The name `rehearse` takes.
    public let name = "auction-race"
    /// One line for `rehearse list`.
    public let summary = "N bidders on M KNB honors, bursts near the close, Buy Now mid-race"
    /// Its parameters with defaults and ranges (`Parameter`).
    public let parameters: [ScenarioParameter] = [
        Parameter.bidders,
        Parameter.honors,
        Parameter.bidsPerBidder,
        Parameter.durationSeconds,
        Parameter.burstPercent,
        Parameter.buyNow,
        Parameter.buyNowAtPercent,
        Parameter.snipePercent,
        Parameter.raiseOwnPercent,
        Parameter.doubleTapPercent,
        Parameter.duplicatePercent,
        Parameter.sniperPercent,
        Parameter.snipesPerSniper,
        Parameter.sniperWindowMilliseconds,
        Parameter.renamePercent,
        Parameter.renamesPerRenamer,
    ]
    /// The operations whose latency it records.
    public let operations: [String] = ["placeBid", "buyNow", "snipe"]
    /// Timeline operations that change an honor's bids (stories leave out "sees … sold").
    static let bidOperations = ["bid", "snipe", "buyNow", "bought"]
    /// The variants it should catch.
    public let variants = ScenarioSupport.variants([
        KNBVariant.bidBurstLosesBids, .buyNowOutsideTransaction, .outbidRereadsLiveDoc, .outbidNoDedup, .outbidDedupInInstance, .bidWithoutRequestId, .outbidSelfNotify, .totalPledgedIncrement, .userUpdateReadThenWrite,
        .totalPledgedFromHonor, .triggersWithoutRetries, .userUpdateEventName,
    ])
    /// Its checks (`Check`), listed so a passing report still names them.
    public let checks: [CheckDeclaration] = [
        Check.bidsStrictlyIncreasing,
        Check.winnerIsHighestBidder,
        Check.noBidAfterSold,
        Check.oneNewBidPerUpdate,
        Check.bidNotLost,
        Check.outbidToPreviousWinner,
        Check.outbidOncePerBid,
        Check.outbidForEveryOvertakenWinner,
        Check.totalPledgedConsistent,
        Check.bidderNamesCurrent,
        Check.bidTooLow,
        Check.outbidSent,
        Check.soldByBuyNow,
        Check.snipeLanded,
    ]

    static let buyNowPrice = 100_000.0

    /// Runs one seed: sets up the app, runs the users, then the end-state checks.
    public func run(_ context: ScenarioContext) async throws {
        let p = context.parameters
        let app = KNBScenarioSupport.makeApp(context, duplicatePercent: p[Parameter.duplicatePercent], propagatesNames: p[Parameter.renamePercent] > 0)
        let admin = await KNBScenarioSupport.signUp(app, email: "admin@knb.org", name: "Admin", admin: true)
        let honorIds = (0..<p[Parameter.honors]).map { "h\($0)" }
        let listener = app.backend.listen("honors", label: "checker/honors") { changes in
            for change in changes { Self.checkUpdate(change, context) }
        }
        for id in honorIds {
            _ = try? await KNBScenarioSupport.persistently { try await admin.createHonor(id: id, name: "Honor \(id)", buyNowPrice: Self.buyNowPrice) }
        }
        let (bidders, registered) = await Self.signUpBidders(app, count: p[Parameter.bidders], context: context)
        // The last bidder who got in presses Buy Now (beside their own bids, so they change no name).
        let buyer = p[Parameter.buyNow] == 1 ? bidders.indices.last { registered[$0] } : nil
        let names = NameBook(bidders)
        let origin = Simulation.nowNanoseconds
        let duration = UInt64(p[Parameter.durationSeconds]) * 1_000_000_000
        let monitor = StateMonitor()
        try await context.monitored(every: .seconds(1), check: { monitor.check(app, context) }) {
            await withTaskGroup(of: Void.self) { group in
                let snipers = bidders.count * p[Parameter.sniperPercent] / 100
                for (index, bidder) in bidders.enumerated() where registered[index] {
                    if index < snipers {  // a sniping bot on this bidder's account, besides their own bids
                        group.addTask {
                            await Simulation.named("sniper-\(index)") {
                                await Self.sniperLoop(bidder, index: index, honorIds: honorIds, origin: origin, backend: app.backend, context: context)
                            }
                        }
                    }
                    group.addTask {
                        await Simulation.named("bidder-\(index)") {
                            await Self.bidderLoop(
                                bidder, index: index, honorIds: honorIds, origin: origin, renames: index != buyer, names: names, backend: app.backend,
                                context: context)
                        }
                    }
                }
                if let buyer = buyer.map({ bidders[$0] }) {
                    group.addTask {
                        await Self.buyNow(buyer, honorId: honorIds[0], at: origin + duration / 100 * UInt64(p[Parameter.buyNowAtPercent]), context: context)
                    }
                }
            }
            await app.backend.waitUntilIdle()
        }
        if p[Parameter.renamePercent] > 0 && !context.isStopped { await Self.settlePendingNames(bidders, names, app) }
        listener.remove()
        Self.checkEnd(app, honorIds: honorIds, context)
        if p[Parameter.renamePercent] > 0 { Self.checkNames(app, names, context) }
        try context.throwIfStopped()
    }

    /// Signs up the bidders one after another; a bidder whose sign-up failed sits the auction out.
    private static func signUpBidders(_ app: KNBApp, count: Int, context: ScenarioContext) async -> (bidders: [KNBClient], registered: [Bool]) {
        var signedUp: [KNBClient] = [], signedIn: [Bool] = []
        for index in 0..<count {
            let (client, registered) = await KNBScenarioSupport.account(app, email: "u\(index)@knb.org", name: "User \(index)")
            signedUp.append(client)
            signedIn.append(registered)
            if !registered { context.note(client.email, "sign-up failed: sits the auction out") }
        }
        return (signedUp, signedIn)
    }

    /// The buyer presses Buy Now on `honorId` at `instant`.
    private static func buyNow(_ buyer: KNBClient, honorId: String, at instant: UInt64, context: ScenarioContext) async {
        await KNBScenarioSupport.sleep(until: instant)
        guard !context.isStopped else { return }
        context.note(buyer.email, "buyNow \(honorId)")
        let start = Simulation.nowNanoseconds
        do {
            _ = try await ScenarioSupport.retrying { try await buyer.buyNow(honorId: honorId) }
            context.note(buyer.email, "bought \(honorId)")
        } catch {
            context.note(buyer.email, "buyNow failed: \(error)")
        }
        context.recordLatency("buyNow", user: buyer.email, intendedStartNanoseconds: start)
    }

    /// One bidder: open-model arrivals; each bid reads the honor, outbids it, retries a lost race;
    /// between bids, name changes when `renames` (and `renamePercent` picks them).
    static func bidderLoop(
        _ bidder: KNBClient, index: Int, honorIds: [String], origin: UInt64, renames renamer: Bool, names: NameBook, backend: Backend,
        context: ScenarioContext
    ) async {
        let p = context.parameters
        var random = Simulation.random("auction/bidder-\(index)")
        let arrivals = KNBScenarioSupport.arrivals(
            count: p[Parameter.bidsPerBidder], durationSeconds: p[Parameter.durationSeconds], burstPercent: p[Parameter.burstPercent], random: &random, origin: origin)
        var renames = renamer ? renameInstants(index: index, origin: origin, context: context) : []
        // Read once: each parameter read hashes its name.
        let raiseOwnPercent = p[Parameter.raiseOwnPercent], doubleTapPercent = p[Parameter.doubleTapPercent]
        let closingFrom = origin + UInt64(p[Parameter.durationSeconds]) * 900_000_000, snipePercent = p[Parameter.snipePercent]
        for arrival in arrivals {
            await rename(bidder, before: arrival, pending: &renames, names: names, context: context)
            await KNBScenarioSupport.sleep(until: arrival)
            if context.isStopped { return }
            let honorId = honorIds[random.below(honorIds.count)]
            let raiseOwn = random.below(100) < raiseOwnPercent
            let doubleTap = random.below(100) < doubleTapPercent
            let closing = arrival >= closingFrom
            let snipe = closing && random.below(100) < snipePercent
            let increment = Double(1 + random.below(snipe ? 1_000 : 20))
            await placeBid(
                bidder, honorId: honorId, increment: increment, raiseOwn: raiseOwn, doubleTap: doubleTap, arrival: arrival, backend: backend, context: context)
        }
        await rename(bidder, before: .max, pending: &renames, names: names, context: context)
    }

    /// One sniper: reads the honor once as the sniping window opens, then fires `snipesPerSniper`
    /// blind bids at seeded instants inside the window without re-reading or waiting for the
    /// earlier ones: a burst far above 1 write/s on one honor. A bid may lose (too low, sold), but
    /// not to contention the app gives up on within `KNBBidding.patience` (`bid-not-lost`).
    static func sniperLoop(_ bidder: KNBClient, index: Int, honorIds: [String], origin: UInt64, backend: Backend, context: ScenarioContext) async {
        let p = context.parameters
        var random = Simulation.random("auction/sniper-\(index)")
        let close = origin + UInt64(p[Parameter.durationSeconds]) * 1_000_000_000
        let window = UInt64(p[Parameter.sniperWindowMilliseconds]) * 1_000_000
        let honorId = honorIds[random.below(honorIds.count)]
        await KNBScenarioSupport.sleep(until: close - window)
        if context.isStopped { return }
        guard let honor = try? await ScenarioSupport.retrying({ try await bidder.firestore.get(DocumentPath("honors", honorId)) }),
              let fields = honor.fields, fields["isSold"] != .bool(true) else { return }
        // A blind jump well above what it read (1000…5000), while the other bidders' re-read
        // bids keep committing below it: each commit is a conflict for the snipe in flight.
        let base = fields["currentBid"]?.doubleValue ?? 0
        var snipes: [(at: UInt64, amount: Double)] = []
        for _ in 0..<p[Parameter.snipesPerSniper] {
            snipes.append((close - window + UInt64(random.below(Int(window))), base + Double(1_000 + random.below(4_001))))
        }
        let planned = snipes.sorted { $0.at < $1.at }
        await withTaskGroup(of: Void.self) { group in
            for snipe in planned where snipe.amount < buyNowPrice {
                group.addTask {
                    await KNBScenarioSupport.sleep(until: snipe.at)
                    if context.isStopped { return }
                    context.note(bidder.email, "snipe \(honorId) \(Int(snipe.amount))")
                    let sent = backend.env.clock.now
                    do {
                        _ = try await ScenarioSupport.retrying { try await bidder.placeBid(honorId: honorId, amount: snipe.amount) }
                        context.sometimes(Check.snipeLanded, true)
                    } catch KNBError.backend(.aborted(let reason)) {
                        KNBBidding.judgeAborted(
                            "snipe", by: bidder.email, amount: snipe.amount, honorId: honorId, reason: reason, waited: backend.env.clock.now - sent,
                            confirmed: false, firestore: backend.firestore, observer: context)
                    } catch {
                        if case KNBError.bidTooLow = error { context.sometimes(Check.bidTooLow, true) }
                        context.note(bidder.email, "snipe failed: \(error)")
                    }
                    context.always(Check.bidNotLost, true, "")
                    context.recordLatency("snipe", user: bidder.email, intendedStartNanoseconds: snipe.at)
                }
            }
        }
    }

    static func placeBid(
        _ bidder: KNBClient, honorId: String, increment: Double, raiseOwn: Bool, doubleTap: Bool, arrival: UInt64, backend: Backend,
        context: ScenarioContext
    ) async {
        await KNBBidding.placeBid(
            bidder, honorId: honorId, increment: increment, raiseOwn: raiseOwn, doubleTap: doubleTap, buyNowPrice: buyNowPrice,
            retry: .simulated, backend: backend, observer: context)
        context.recordLatency("placeBid", user: bidder.email, intendedStartNanoseconds: arrival)
    }

    /// Every committed honor update: at most one new bid, earlier bids untouched.
    static func checkUpdate(_ change: DocumentChange, _ context: ScenarioContext) {
        let before = change.before["bids"]?.arrayValue ?? []
        let after = change.after["bids"]?.arrayValue ?? []
        guard change.after.exists else { return }
        let appended = after.count - before.count
        context.always(Check.oneNewBidPerUpdate, (appended == 0 || appended == 1) && keepsEarlierBids(before, after),
            "update of \(change.after.path) went from \(before.count) to \(after.count) bids (or rewrote earlier bids)")
    }

    /// Always-checks over the live honors and the outbox, everything re-read: the reference the
    /// incremental `StateMonitor` is checked against in debug builds.
    static func fullPass(_ app: KNBApp) -> [StateMonitor.Observation] {
        let (observations, honorBids, bidsById) = honorObservations(app.backend.firestore.query("honors"))
        return observations + fullPassPushes(app.backend.outbox.records, honorBids: honorBids, bidsById: bidsById)
    }

    /// The honors' always-checks (`honors` as any reader got them: the live index, or a load
    /// run's settled read from a real server), with each honor's bids and the bids' ids.
    static func honorObservations(
        _ honors: [DocumentSnapshot]
    ) -> (observations: [StateMonitor.Observation], honorBids: [[Fields]], bidsById: [String: (honor: Int, index: Int)]) {
        var observations: [StateMonitor.Observation] = []
        // Bid id → (honor, index in its bids); one hash per bid also finds duplicate ids.
        var honorBids: [[Fields]] = []
        var bidsById: [String: (honor: Int, index: Int)] = [:]
        for honor in honors {
            let bids = (honor["bids"]?.arrayValue ?? []).compactMap(\.mapValue)
            let honorIndex = honorBids.count
            honorBids.append(bids)
            observations += fullPassHonor(honor, bids: bids, honorIndex: honorIndex, bidsById: &bidsById)
        }
        return (observations, honorBids, bidsById)
    }

    /// One honor's four observations in the full pass, indexing its bids' ids on the way.
    private static func fullPassHonor(
        _ honor: DocumentSnapshot, bids: [Fields], honorIndex: Int, bidsById: inout [String: (honor: Int, index: Int)]
    ) -> [StateMonitor.Observation] {
        var observations: [StateMonitor.Observation] = []
        bidsById.reserveCapacity(bidsById.count + bids.count)
        // One pass, each field looked up once per bid: amounts, ids (duplicates), Buy Now.
        var amounts: [Double] = []
        amounts.reserveCapacity(bids.count)
        var ids: [String] = []
        ids.reserveCapacity(bids.count)
        var unique = true
        var buyNowIndex: Int?
        for (index, bid) in bids.enumerated() {
            amounts.append(bid["amount"]?.doubleValue ?? 0)
            if let id = bid["id"]?.stringValue {
                ids.append(id)
                if let earlier = bidsById.updateValue((honorIndex, index), forKey: id), earlier.honor == honorIndex { unique = false }
            }
            if buyNowIndex == nil, bid["comment"]?.stringValue == "Buy Now" { buyNowIndex = index }
        }
        let increasing = zip(amounts, amounts.dropFirst()).allSatisfy { $0 < $1 }
        observations.append(.always(Check.bidsStrictlyIncreasing, failure: increasing && unique ? nil :
            "\(honor.path.id) bids \(amounts.map { Int($0) }) ids \(ids)"))
        if let last = bids.last {
            let consistent = honor["currentBid"]?.doubleValue == last["amount"]?.doubleValue
                && honor["currentWinnerEmail"]?.stringValue == last["bidderEmail"]?.stringValue
            observations.append(.always(Check.winnerIsHighestBidder, failure: consistent ? nil :
                "\(honor.path.id) currentBid \(honor["currentBid"]?.doubleValue ?? -1) winner \(honor["currentWinnerEmail"]?.stringValue ?? "-") but last bid \(last["amount"]?.doubleValue ?? -1) by \(last["bidderEmail"]?.stringValue ?? "-")"))
        }
        let sold = honor["isSold"] == .bool(true)
        observations.append(.sometimes(Check.soldByBuyNow, sold))
        let soldOK = (buyNowIndex == nil || buyNowIndex == bids.count - 1) && (!sold || buyNowIndex == bids.count - 1)
        observations.append(.always(Check.noBidAfterSold, failure: soldOK ? nil :
            "\(honor.path.id) has \(bids.count - 1 - (buyNowIndex ?? bids.count - 1)) bid(s) after its Buy Now"))
        return observations
    }

    /// The outbox's OUTBID pushes, checked in one pass and reported in one batch per check (the
    /// same observations and first violation as one `always` per push).
    private static func fullPassPushes(
        _ records: [OutboxRecord], honorBids: [[Fields]], bidsById: [String: (honor: Int, index: Int)]
    ) -> [StateMonitor.Observation] {
        var observations: [StateMonitor.Observation] = []
        var seen: Set<StateMonitor.PushKey> = []
        var outbidSent = false
        var checked = 0
        var firstFailure: (check: CheckDeclaration, message: String)?
        for record in records where record.channel == .push && record.type == "OUTBID" {
            outbidSent = true
            guard let bidId = record.payload["bidId"], let (honorIndex, index) = bidsById[bidId] else { continue }
            let bids = honorBids[honorIndex]
            checked += 1
            guard firstFailure == nil else { continue }
            let bidder = bids[index]["bidderEmail"]?.stringValue
            let previous = index > 0 ? bids[index - 1]["bidderEmail"]?.stringValue : nil
            if !(record.recipient == previous && record.recipient != bidder) {
                firstFailure = (Check.outbidToPreviousWinner,
                                "OUTBID for \(bidId) went to \(record.recipient); bidder \(bidder ?? "-"), previous winner \(previous ?? "none")")
                continue
            }
            if !seen.insert(StateMonitor.PushKey(bidId: bidId, recipient: record.recipient, token: record.token ?? "")).inserted {
                firstFailure = (Check.outbidOncePerBid, "second OUTBID push for \(bidId) to \(record.recipient)")
            }
        }
        observations.append(.sometimes(Check.outbidSent, outbidSent))
        // The check that failed first goes first, so it is the one recorded as the violation.
        var checks = [Check.outbidToPreviousWinner, Check.outbidOncePerBid]
        if firstFailure?.check == checks[1] { checks.reverse() }
        for check in checks where checked > 0 {
            observations.append(.batch(check, observations: checked, firstFailure: check == firstFailure?.check ? firstFailure?.message : nil))
        }
        return observations
    }

    /// End-state checks once the backend is idle.
    static func checkEnd(_ app: KNBApp, honorIds: [String], _ context: ScenarioContext) {
        guard !context.isStopped else { return }
        let firestore = app.backend.firestore
        var pledged: [String: Double] = [:]
        for honor in firestore.query("honors") {
            let bids = (honor["bids"]?.arrayValue ?? []).compactMap(\.mapValue)
            if let winner = honor["currentWinnerEmail"]?.stringValue { pledged[winner, default: 0] += honor["currentBid"]?.doubleValue ?? 0 }
            for index in bids.indices.dropFirst() {
                guard let previous = bids[index - 1]["bidderEmail"]?.stringValue, let bidder = bids[index]["bidderEmail"]?.stringValue,
                      previous != bidder, let bidId = bids[index]["id"]?.stringValue else { continue }
                let notified = !firestore.query("users/\(previous)/notifications") {
                    $0["type"] == "OUTBID" && $0["data"]?.mapValue?["bidId"] == .string(bidId)
                }.isEmpty
                let account = firestore.liveFields(DocumentPath("users", previous)) == nil ? " (no users document)" : ""
                context.eventually(Check.outbidForEveryOvertakenWinner, notified, "\(previous) was overtaken by \(bidId) on \(honor.path.id) but got no OUTBID\(account)")
            }
        }
        for user in firestore.query("users") {
            let total = user["totalPledged"]?.doubleValue ?? 0
            let expected = pledged[user.id] ?? 0
            context.eventually(Check.totalPledgedConsistent, abs(total - expected) < 1e-6,
                               "\(user.id) totalPledged \(total), but wins honors worth \(expected)")
        }
    }
}
