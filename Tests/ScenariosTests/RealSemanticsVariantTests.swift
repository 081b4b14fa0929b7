import Scenarios
import Testing

/// Designs only Firestore's real semantics expose (held to the emulator, docs/real-firestore.md):
/// the seed's UFree rules as written, a query the rules cannot prove (rules are not filters), and
/// a failed create in a server transaction, which is final rather than retried. (The due-alert
/// query without its index, `alerts-index-not-deployed`, is caught in `HeartbeatTimelineTests`.)
@Suite struct RealSemanticsVariantTests {
    init() { BuiltInScenarios.register() }

    @Test(arguments: [
        ("friend-handshake", "seed-rules-literal", "rules-allow-the-app"),
        ("friend-handshake", "sent-requests-query", "rules-allow-the-app"),
        ("privacy-access", "username-blind-create", "every-user-named"),
    ])
    func caughtByTheirCheck(scenario: String, variant: String, check: String) throws {
        let caught = try caughtSeeds(scenario, variant: variant, parameters: [:], strategy: .random, seeds: 1...4)
        #expect(caught.count >= 3, "\(variant): caught on \(caught)")
        #expect(caught.allSatisfy { $0.check == check }, "\(variant) caught by unexpected checks: \(caught)")
        #expect(BugZoo.bugs.contains { $0.variant == variant && $0.scenario == scenario })
    }
}
