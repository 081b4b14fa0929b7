import Domain
@testable import FirebaseHarness
@testable import Harness
@testable import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// The incremental auction-race monitor reports what the full re-read reports, pass after pass,
/// through every path it has: honors unchanged, bids appended, bids rewritten, an appended id
/// that already exists, honors added and deleted (order changes), pushes for bids not yet
/// written, duplicate pushes and pushes to the wrong user.
@Suite struct AuctionRaceMonitorTests {
    init() { BuiltInScenarios.register() }

    static func bid(_ id: String, _ amount: Double, _ bidder: String, comment: String? = nil) -> Value {
        var fields: Fields = ["id": .string(id), "amount": .double(amount), "bidderEmail": .string(bidder)]
        if let comment { fields["comment"] = .string(comment) }
        return .map(fields)
    }

    @Test func agreesWithTheFullPassThroughRewritesReordersAndStrayPushes() throws {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) { () async throws -> [String] in
            let app = KNBApp(backend: Backend(env: SimulatedEnvironment.current(), faults: .none))
            let firestore = app.backend.firestore
            let monitor = AuctionRaceScenario.StateMonitor()
            var disagreements: [String] = []
            var passes = 0
            func compare(_ label: String) {
                let incremental = monitor.pass(app)
                let full = AuctionRaceScenario.fullPass(app)
                passes += 1
                // Byte for byte: `==` on strings is canonical equivalence, messages are bytes.
                if incremental != full || Array("\(incremental)".utf8) != Array("\(full)".utf8) {
                    disagreements.append("\(label): \(AuctionRaceScenario.StateMonitor.firstDifference(incremental, full))")
                }
            }
            func push(_ bidId: String, to recipient: String, token: String = "tok") async throws {
                _ = try await app.backend.messaging.sendEachForMulticast(
                    tokens: [token], message: PushMessage(recipient: recipient, type: "OUTBID", title: "t", body: "b", data: ["bidId": bidId]))
            }
            func setBids(_ honor: String, _ bids: [Value], winner: String?, current: Double?, sold: Bool = false) async throws {
                var fields: Fields = ["bids": .array(bids), "isSold": .bool(sold)]
                if let winner { fields["currentWinnerEmail"] = .string(winner) }
                if let current { fields["currentBid"] = .double(current) }
                _ = try await firestore.set(DocumentPath("honors", honor), fields)
            }
            let a = Self.bid("h0-b1", 10, "u1"), b = Self.bid("h0-b2", 20, "u2"), c = Self.bid("h0-b3", 30, "u1")
            compare("no honors")
            try await setBids("h0", [], winner: nil, current: nil)
            try await setBids("h1", [Self.bid("h1-b1", 5, "u3")], winner: "u3", current: 5)
            compare("two honors")
            compare("nothing changed")
            try await setBids("h0", [a], winner: "u1", current: 10)
            compare("first bid")
            try await push("h0-b9", to: "u2")  // a push for a bid not written yet
            compare("stray push")
            try await setBids("h0", [a, b], winner: "u2", current: 20)
            try await push("h0-b2", to: "u1")  // right: u1 was the previous winner
            compare("appended and pushed")
            try await setBids("h0", [a, b, Self.bid("h0-b9", 25, "u3")], winner: "u3", current: 25)
            compare("the stray push's bid arrives")
            try await push("h0-b2", to: "u1")  // the same push again: outbid-once-per-bid fails
            compare("duplicate push")
            try await setBids("h0", [a, c], winner: "u1", current: 30)  // a bid lost: rewritten
            compare("rewrite")
            try await setBids("h1", [Self.bid("h1-b1", 5, "u3"), Self.bid("h0-b1", 4, "u2")], winner: "u3", current: 5)  // an id that exists, amounts down
            compare("repeated id across honors, decreasing")
            try await setBids("h0", [a, c, Self.bid("h0-b4", 40, "u2", comment: "Buy Now"), Self.bid("h0-b5", 50, "u3")], winner: "u3", current: 50, sold: true)
            compare("bid after Buy Now")
            try await push("h0-b5", to: "u3")  // to the bidder: outbid-to-previous-winner fails
            compare("push to the bidder")
            try await setBids("g0", [Self.bid("g0-b1", 1, "u4")], winner: "u4", current: 1)
            compare("an honor sorted first")
            try await firestore.delete(DocumentPath("honors", "h1"))
            compare("an honor deleted")
            try await setBids("h0", [a, c, Self.bid("h0-b4", 40, "u2", comment: "Buy Now"), Self.bid("h0-b5", 50, "u3"), Self.bid("h0-b6", 60, "u1")], winner: "u1", current: 60, sold: true)
            try await push("h0-b6", to: "u3")
            compare("appended after all that")
            // Values Swift calls equal but that print differently: -0.0 and a decomposed "é".
            let zero = Self.bid("z-b1", 0.0, "caf\u{E9}@x")
            try await setBids("z", [zero], winner: "w", current: 5)
            compare("zero amount")
            try await setBids("z", [Self.bid("z-b1", -0.0, "cafe\u{301}@x")], winner: "w", current: 6)
            compare("negative zero, decomposed accent")
            try await setBids("z", [Self.bid("z-b1", -0.0, "cafe\u{301}@x"), .string("not a bid"), Self.bid("z-b2", 1, "v")], winner: "v", current: 7)
            compare("a non-map element")
            try await setBids("z", [Self.bid("z-b1", -0.0, "cafe\u{301}@x"), .string("not a bid"), Self.bid("z-b2", 1, "v")], winner: "v", current: 8)
            compare("version bump without new bids")
            _ = try await app.backend.messaging.sendEachForMulticast(
                tokens: ["tok"], message: PushMessage(recipient: "v", type: "OUTBID", title: "t", body: "b", data: [:]))
            compare("a push without a bid id")
            #expect(passes == 20)
            // The sequence is not vacuous: the full pass ends with failing checks of both kinds.
            let final = AuctionRaceScenario.fullPass(app)
            #expect(final.contains { if case .batch(_, let count, let failure) = $0 { return count > 0 && failure != nil }; return false })
            #expect(final.contains { if case .always(_, let failure) = $0 { return failure != nil }; return false })
            return disagreements
        }
        let disagreements = try #require(result.output)
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    /// The comparison is not vacuous: the full pass sees these runs' violations.
    @Test func theFullPassSeesTheViolationsTheTestPlants() {
        let result = Simulation.run(SimulationConfiguration(seed: 1)) { () async throws -> [AuctionRaceScenario.StateMonitor.Observation] in
            let app = KNBApp(backend: Backend(env: SimulatedEnvironment.current(), faults: .none))
            _ = try await app.backend.firestore.set(DocumentPath("honors", "h0"), [
                "bids": .array([Self.bid("h0-b1", 10, "u1"), Self.bid("h0-b2", 5, "u2")]), "currentBid": .double(5), "currentWinnerEmail": .string("u2"),
            ])
            return AuctionRaceScenario.fullPass(app)
        }
        let observations = result.output ?? []
        #expect(observations.contains { if case .always(let check, let failure) = $0 { return check == AuctionRaceScenario.Check.bidsStrictlyIncreasing && failure != nil }; return false })
    }
}
