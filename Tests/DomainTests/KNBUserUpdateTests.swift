import Domain
import SimulatedFirebase
import Testing

/// `onUserUpdate`: a name change reaches the user's bids, `currentWinner` and
/// posts; it is deployed only when asked; and the literal read-then-write erases a bid that
/// commits between its read and its write, where the careful transaction keeps it.
@Suite struct KNBUserUpdateTests {
    let h1 = DocumentPath("honors", "h1")

    func makeApp(
        variant: KNBVariant = .careful, propagatesNames: Bool = true, faults: BackendFaults = .none, env: DomainEnvironment = testEnvironment()
    ) async throws -> (app: KNBApp, alice: KNBClient, bob: KNBClient) {
        let app = KNBApp(backend: Backend(env: env, faults: faults), variant: variant, propagatesNames: propagatesNames)
        let alice = app.client(email: "alice@knb.org", name: "alice"), bob = app.client(email: "bob@knb.org", name: "bob")
        let dana = app.client(email: "dana@knb.org", name: "dana")
        for client in [alice, bob, dana] { try await client.register() }
        try await app.backend.firestore.update(DocumentPath("users", "dana@knb.org"), ["isAdmin": .set(true)])
        try await dana.createHonor(id: "h1", name: "Petichah", buyNowPrice: 1_000)
        return (app, alice, bob)
    }

    func names(_ honor: DocumentSnapshot) -> [String] {
        (honor["bids"]?.arrayValue ?? []).compactMap { $0.mapValue?["bidderName"]?.stringValue }
    }

    @Test func aNameChangeReachesBidsWinnerAndPosts() async throws {
        let knb = try await makeApp()
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        try await knb.bob.placeBid(honorId: "h1", amount: 20)
        try await knb.alice.placeBid(honorId: "h1", amount: 30)
        let post = try await knb.alice.createPost("hello")
        try await knb.alice.changeName("Alice Cohen")
        try await knb.alice.changeName("Alice Levi")
        await knb.app.backend.waitUntilIdle()
        let honor = await knb.app.backend.firestore.get(h1)
        #expect(names(honor) == ["Alice Levi", "bob", "Alice Levi"])
        #expect(honor["currentWinner"] == "Alice Levi" && honor["currentBid"] == .double(30))
        #expect(await knb.app.backend.firestore.get(post)["authorName"] == "Alice Levi")
        // New bids carry the new name at once.
        try await knb.bob.placeBid(honorId: "h1", amount: 40)
        try await knb.alice.placeBid(honorId: "h1", amount: 50)
        #expect(names(await knb.app.backend.firestore.get(h1)).last == "Alice Levi")
    }

    @Test func notDeployedUnlessAsked() async throws {
        let knb = try await makeApp(propagatesNames: false)
        try await knb.alice.placeBid(honorId: "h1", amount: 10)
        try await knb.alice.changeName("Alice Cohen")
        await knb.app.backend.waitUntilIdle()
        #expect(names(await knb.app.backend.firestore.get(h1)) == ["alice"])
    }

    /// The function's admin calls take virtual time: bob's bid, placed just after alice's rename,
    /// commits between the literal design's read and write (the trigger's delay is 0 and admin
    /// calls are slow here) and is erased; the careful transaction retries and keeps it. On
    /// the simulator with strict timer order: the order in time is the point, which a clock that
    /// wakes every sleeper at once cannot keep.
    @Test(arguments: [KNBVariant.careful, .userUpdateReadThenWrite])
    func aBidDuringThePropagation(variant: KNBVariant) throws {
        var faults = BackendFaults.none
        // Every admin call takes 100–101 ms (always the tail, uniform on [2 × median, tailMax]): the
        // function queries the honors and the posts (+100, +200 ms), reads h1 at +300 ms and
        // writes it at +400 ms; bob's bid lands at +350 ms.
        faults.adminOperationLatency = LatencyModel(median: .milliseconds(50), tailProbability: 1, tailMax: .milliseconds(101))
        let slowAdmin = faults
        let honor = try onSimulator(seed: 1, timingWindow: .zero) { env in
            let knb = try await makeApp(variant: variant, faults: slowAdmin, env: env)
            try await knb.alice.placeBid(honorId: "h1", amount: 10)
            try await knb.alice.changeName("Alice Cohen")
            try await knb.app.backend.env.clock.sleep(for: .milliseconds(350))  // the function has read h1, not written yet
            try await knb.bob.placeBid(honorId: "h1", amount: 20)
            await knb.app.backend.waitUntilIdle()
            let honor = await knb.app.backend.firestore.get(h1)
            knb.app.backend.terminate()
            return honor
        }
        if variant == .careful {
            #expect(names(honor) == ["Alice Cohen", "bob"] && honor["currentWinner"] == "bob")
        } else {
            #expect(names(honor) == ["Alice Cohen"], "the literal design should erase bob's bid")
            #expect(honor["currentBid"] == .double(20), "currentBid stays at the erased bid")
        }
    }
}
