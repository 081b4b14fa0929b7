import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase
import Synchronization

extension AuctionRaceScenario {
    /// The once-a-virtual-second Always checks over the honors and the OUTBID pushes, made on
    /// what changed since the last pass instead of re-reading every bid and push (the full pass,
    /// `fullPass`, is O(bids + pushes) a pass, O(n²) a run).
    ///
    /// Equivalent to the full pass — the same observations, in the same order, with the same
    /// messages — because:
    /// - an honor whose document version did not change has the same fields, so its four
    ///   observations are the ones of the last pass;
    /// - an honor whose `bids` only grew (the old array is a prefix of the new one) keeps the
    ///   verdicts of its old bids, and only the new ones are read;
    /// - the id → (honor, position) index depends only on the honors' order and their ids: it is
    ///   extended for appended ids and rebuilt as the full pass builds it when the order changes,
    ///   an honor's bids are rewritten, or an appended id already exists;
    /// - the outbox is append-only and a push's verdict depends on its bid's position and the two
    ///   bidders there, fixed while bids only grow: new pushes are checked in outbox order after
    ///   the old ones; a rebuilt index, a rewrite, or an unmatched push that now matches rescans
    ///   every push.
    /// Debug builds run the full pass beside it on every pass and assert the two agree.
    final class StateMonitor: Sendable {
        /// One call the pass makes on the context, recorded so the two passes can be compared.
        enum Observation: Equatable {
            /// `always(check, held, message)`; the message only when it failed.
            case always(CheckDeclaration, failure: String?)
            /// `sometimes(goal, reached)`.
            case sometimes(CheckDeclaration, Bool)
            /// `always(check, observations:, firstFailure:)`.
            case batch(CheckDeclaration, observations: Int, firstFailure: String?)

            func report(to context: ScenarioContext) {
                switch self {
                case .always(let check, let failure): context.always(check, failure == nil, failure ?? "")
                case .sometimes(let goal, let reached): context.sometimes(goal, reached)
                case .batch(let check, let count, let failure): context.always(check, observations: count, firstFailure: failure)
                }
            }
        }

        /// What one honor's document at one version contributes.
        struct Honor {
            var version: UInt64
            /// The `bids` field as read, and its map elements (the positions the checks use).
            var raw: ValueArray
            var bids: [Fields]
            /// The last bid's amount (strictly increasing so far) and the ids seen (unique so far).
            var lastAmount: Double?
            var idSet: Set<String>
            var increasing: Bool
            var unique: Bool
            var buyNowIndex: Int?
            /// The honor's observations at this version, in the full pass's order.
            var observations: [Observation]
        }

        /// One OUTBID push as outbid-once-per-bid tells them apart (both passes use it).
        struct PushKey: Hashable { let bidId: String, recipient: String, token: String }

        struct State {
            var order: [String] = []
            var honors: [Honor] = []
            var bidsById: [String: (honor: Int, index: Int)] = [:]
            /// Outbox records read, and the OUTBID pushes among them whose bid was not found.
            var scanned = 0
            var unmatched: [String] = []
            var seen: Set<PushKey> = []
            var checked = 0
            var outbidSent = false
            var firstFailure: (check: CheckDeclaration, message: String)?

            mutating func resetPushes() {
                scanned = 0
                unmatched = []
                seen = []
                checked = 0
                outbidSent = false
                firstFailure = nil
            }
        }
        private let state = Mutex(State())

        /// One pass: reports to `context` what the full pass would.
        func check(_ app: KNBApp, _ context: ScenarioContext) {
            let observations = pass(app)
            #if DEBUG
            let reference = AuctionRaceScenario.fullPass(app)
            assert(observations == reference, "incremental auction-race monitor disagrees with the full pass: \(Self.firstDifference(observations, reference))")
            #endif
            for observation in observations { observation.report(to: context) }
        }

        static func firstDifference(_ a: [Observation], _ b: [Observation]) -> String {
            for (index, (x, y)) in zip(a, b).enumerated() where x != y { return "at \(index): \(x) vs \(y)" }
            return "\(a.count) vs \(b.count) observations"
        }

        /// The incremental pass (see the type's comment).
        func pass(_ app: KNBApp) -> [Observation] {
            let snapshots = app.backend.firestore.query("honors")
            let records = app.backend.outbox.records
            return state.withLock { state in
                let rebuildIndex = Self.readHonors(snapshots, &state)
                Self.updateIndex(&state, rebuild: rebuildIndex)
                Self.scanPushes(records, &state)
                return Self.passObservations(state)
            }
        }

        /// Reads the honors whose version changed since the last pass; true when the id index must
        /// be rebuilt (the honors' order changed, an honor's bids were rewritten, or an appended id
        /// already exists).
        private static func readHonors(_ snapshots: [DocumentSnapshot], _ state: inout State) -> Bool {
            let ids = snapshots.map(\.path.id)
            var rebuildIndex = false
            if ids != state.order {
                state.order = ids
                state.honors = []
                rebuildIndex = true
            }
            for (honorIndex, snapshot) in snapshots.enumerated() {
                if honorIndex < state.honors.count, state.honors[honorIndex].version == snapshot.version { continue }
                let raw = snapshot["bids"]?.arrayValue ?? []
                if honorIndex < state.honors.count, raw.count >= state.honors[honorIndex].raw.count,
                   raw[..<state.honors[honorIndex].raw.count].elementsEqual(state.honors[honorIndex].raw) {
                    extendHonor(honorIndex, snapshot: snapshot, raw: raw, &state, rebuildIndex: &rebuildIndex)
                } else {
                    if honorIndex < state.honors.count { rebuildIndex = true }  // bids rewritten
                    var honor = Honor(
                        version: snapshot.version, raw: raw, bids: [], lastAmount: nil, idSet: [],
                        increasing: true, unique: true, buyNowIndex: nil, observations: [])
                    for element in raw { if let bid = element.mapValue { Self.append(bid, to: &honor) } }
                    honor.observations = Self.observations(snapshot, honor)
                    if honorIndex < state.honors.count { state.honors[honorIndex] = honor } else { state.honors.append(honor) }
                }
            }
            return rebuildIndex
        }

        /// An honor whose bids only grew: keeps the verdicts of its old bids, reads the new ones and
        /// indexes their ids (unless the index is to be rebuilt anyway).
        private static func extendHonor(
            _ honorIndex: Int, snapshot: DocumentSnapshot, raw: ValueArray, _ state: inout State, rebuildIndex: inout Bool
        ) {
            var honor = state.honors[honorIndex]
            let added = raw[honor.raw.count...]
            honor.version = snapshot.version
            // `==` on values is Swift's (0.0 == -0.0, canonically equivalent strings
            // are equal): the verdicts of the old bids hold, but messages and pushes
            // read the new maps, byte for byte what the full pass reads.
            honor.bids = raw[..<honor.raw.count].compactMap(\.mapValue)
            honor.raw = raw
            for element in added {
                guard let bid = element.mapValue else { continue }
                let position = honor.bids.count
                Self.append(bid, to: &honor)
                if !rebuildIndex, let id = bid["id"]?.stringValue {
                    if state.bidsById[id] != nil { rebuildIndex = true } else { state.bidsById[id] = (honorIndex, position) }
                }
            }
            honor.observations = Self.observations(snapshot, honor)
            state.honors[honorIndex] = honor
        }

        /// Rebuilds the id index when asked; every push is checked again after a rebuild, or when an
        /// unmatched push's bid is now indexed.
        private static func updateIndex(_ state: inout State, rebuild: Bool) {
            var rescanPushes = false
            if rebuild {
                // As the full pass builds it: the last (honor, position) of each id, in honor order.
                state.bidsById = [:]
                for (honorIndex, honor) in state.honors.enumerated() {
                    for (index, bid) in honor.bids.enumerated() {
                        if let id = bid["id"]?.stringValue { state.bidsById[id] = (honorIndex, index) }
                    }
                }
                rescanPushes = true
            } else if state.unmatched.contains(where: { state.bidsById[$0] != nil }) {
                rescanPushes = true
            }
            if rescanPushes { state.resetPushes() }
        }

        /// outbid-to-previous-winner and outbid-once-per-bid on the OUTBID pushes not scanned yet.
        private static func scanPushes(_ records: [OutboxRecord], _ state: inout State) {
            for record in records[min(state.scanned, records.count)...] where record.channel == .push && record.type == "OUTBID" {
                state.outbidSent = true
                guard let bidId = record.payload["bidId"] else { continue }
                guard let (honorIndex, index) = state.bidsById[bidId] else {
                    state.unmatched.append(bidId)
                    continue
                }
                let bids = state.honors[honorIndex].bids
                state.checked += 1
                guard state.firstFailure == nil else { continue }
                let bidder = bids[index]["bidderEmail"]?.stringValue
                let previous = index > 0 ? bids[index - 1]["bidderEmail"]?.stringValue : nil
                if !(record.recipient == previous && record.recipient != bidder) {
                    state.firstFailure = (Check.outbidToPreviousWinner,
                                          "OUTBID for \(bidId) went to \(record.recipient); bidder \(bidder ?? "-"), previous winner \(previous ?? "none")")
                    continue
                }
                if !state.seen.insert(PushKey(bidId: bidId, recipient: record.recipient, token: record.token ?? "")).inserted {
                    state.firstFailure = (Check.outbidOncePerBid, "second OUTBID push for \(bidId) to \(record.recipient)")
                }
            }
            state.scanned = records.count
        }

        /// The pass's observations in the full pass's order: the honors', then the pushes' (the
        /// failed push check first).
        private static func passObservations(_ state: State) -> [Observation] {
            var observations = state.honors.flatMap(\.observations)
            observations.append(.sometimes(Check.outbidSent, state.outbidSent))
            var checks = [Check.outbidToPreviousWinner, Check.outbidOncePerBid]
            if state.firstFailure?.check == checks[1] { checks.reverse() }
            for check in checks where state.checked > 0 {
                observations.append(.batch(check, observations: state.checked, firstFailure: check == state.firstFailure?.check ? state.firstFailure?.message : nil))
            }
            return observations
        }

        /// Adds the next map element of an honor's bids.
        private static func append(_ bid: Fields, to honor: inout Honor) {
            let position = honor.bids.count
            let amount = bid["amount"]?.doubleValue ?? 0
            if let last = honor.lastAmount, !(last < amount) { honor.increasing = false }
            honor.lastAmount = amount
            if let id = bid["id"]?.stringValue, !honor.idSet.insert(id).inserted { honor.unique = false }
            if honor.buyNowIndex == nil, bid["comment"]?.stringValue == "Buy Now" { honor.buyNowIndex = position }
            honor.bids.append(bid)
        }

        /// The honor's four observations, as the full pass words them.
        private static func observations(_ snapshot: DocumentSnapshot, _ honor: Honor) -> [Observation] {
            var observations: [Observation] = []
            let id = snapshot.path.id
            observations.append(.always(
                Check.bidsStrictlyIncreasing,
                failure: honor.increasing && honor.unique ? nil :
                    "\(id) bids \(honor.bids.map { Int($0["amount"]?.doubleValue ?? 0) }) ids \(honor.bids.compactMap { $0["id"]?.stringValue })"))
            if let last = honor.bids.last {
                let consistent = snapshot["currentBid"]?.doubleValue == last["amount"]?.doubleValue
                    && snapshot["currentWinnerEmail"]?.stringValue == last["bidderEmail"]?.stringValue
                observations.append(.always(
                    Check.winnerIsHighestBidder,
                    failure: consistent ? nil : "\(id) currentBid \(snapshot["currentBid"]?.doubleValue ?? -1) winner \(snapshot["currentWinnerEmail"]?.stringValue ?? "-") but last bid \(last["amount"]?.doubleValue ?? -1) by \(last["bidderEmail"]?.stringValue ?? "-")"))
            }
            let sold = snapshot["isSold"] == .bool(true)
            observations.append(.sometimes(Check.soldByBuyNow, sold))
            let count = honor.bids.count
            let soldOK = (honor.buyNowIndex == nil || honor.buyNowIndex == count - 1) && (!sold || honor.buyNowIndex == count - 1)
            observations.append(.always(
                Check.noBidAfterSold,
                failure: soldOK ? nil : "\(id) has \(count - 1 - (honor.buyNowIndex ?? count - 1)) bid(s) after its Buy Now"))
            return observations
        }
    }
}
