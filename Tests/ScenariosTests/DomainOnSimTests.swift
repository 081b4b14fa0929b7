import Domain
import FirebaseHarness
import Harness
import Scenarios
import Sim
import SimulatedFirebase
import Testing

/// The KNB auction, run on the simulator: the domain core's actors and timers are scheduled by
/// the kernel, so a seed fixes every interleaving and every outbox entry.
func knbAuctionRace(bidders: Int) async throws -> [String] {
    let env = SimulatedEnvironment.current()
    let app = KNBApp(backend: Backend(env: env, faults: .default))
    app.backend.setRules(KNBRules.rules)
    let admin = app.client(email: "admin@knb.org", name: "Admin")
    try await admin.register()
    try await app.backend.firestore.update(DocumentPath("users", "admin@knb.org"), ["isAdmin": .set(true)])
    try await admin.createHonor(id: "h1", name: "Petichah", buyNowPrice: 1_000)
    try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<bidders {
            group.addTask {
                let user = app.client(email: "u\(index)@knb.org", name: "User \(index)")
                try? await user.register()
                try? await user.registerToken("tok-\(index)")
                _ = try? await user.placeBid(honorId: "h1", amount: Double(10 + index))
            }
        }
        try await group.waitForAll()
    }
    await app.backend.waitUntilIdle()
    return app.backend.outbox.records.map(\.description)
}

@Suite struct DomainOnSimTests {
    init() { BuiltInScenarios.register() }

    @Test func knbAuctionIsDeterministicOnTheSimulator() {
        for seed in UInt64(1)...5 {
            let a = Simulation.run(SimulationConfiguration(seed: seed)) { try await knbAuctionRace(bidders: 8) }
            let b = Simulation.run(SimulationConfiguration(seed: seed)) { try await knbAuctionRace(bidders: 8) }
            #expect(a.outcome == .finished, "seed \(seed): \(a.outcome)")
            #expect(a.traceHash == b.traceHash, "seed \(seed)")
            #expect(a.output == b.output, "seed \(seed)")
        }
    }
}
