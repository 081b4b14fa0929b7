import Domain
import SimulatedFirebase
import Testing

@Suite struct FirestoreTests {
    let h1 = DocumentPath("honors", "h1")

    @Test func createFailsAlreadyExistsButSetOverwrites() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(h1, ["a": 1])
        let error = await backendError { try await backend.firestore.create(h1, ["a": 2]) }
        #expect(error == .alreadyExists(h1))
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        try await client.setData(h1, ["a": 3])
        #expect(await backend.firestore.get(h1)["a"] == 3)
    }

    @Test func updateOfMissingDocumentIsNotFound() async {
        let backend = makeBackend()
        let error = await backendError { try await backend.firestore.update(h1, ["a": .set(1)]) }
        #expect(error == .notFound(h1))
    }

    @Test func transformsFollowModelRules() async throws {
        let backend = makeBackend()
        try await backend.firestore.create(h1, ["n": 1, "xs": ["a", "b", "a"]])
        try await backend.firestore.update(h1, ["n": .increment(2), "xs": .arrayRemove(["a"])])
        try await backend.firestore.update(h1, ["n": .increment(2), "xs": .arrayUnion(["b", "c", "c"])])
        let snapshot = await backend.firestore.get(h1)
        #expect(snapshot["n"] == 5)  // increment is not idempotent: applied twice, added twice
        #expect(snapshot["xs"] == ["b", "c"])  // arrayRemove removed every "a"; union added only missing
        try await backend.firestore.update(h1, ["m.k": .set(1), "missing": .increment(.double(1.5))])
        #expect(await backend.firestore.get(h1)["m"] == ["k": 1])
        #expect(await backend.firestore.get(h1)["missing"] == .double(1.5))
    }

    @Test func addMakesSeededRandomIdsSoTwoAddsBothSucceed() async throws {
        let first = makeBackend(seed: 7), second = makeBackend(seed: 7)
        let a = try await first.firestore.add("bookings", ["date": "d"])
        let b = try await first.firestore.add("bookings", ["date": "d"])
        #expect(a != b)
        #expect(first.firestore.query("bookings").count == 2)
        #expect(try await second.firestore.add("bookings", ["date": "d"]) == a)
    }

    @Test func versionsBumpPerChangeAndNoOpWritesEmitNothing() async throws {
        let backend = makeBackend()
        let events = EventLog()
        backend.functions.onWrite("honors", kinds: Set(TriggerKind.allCases), name: "log") { await events.add($0) }
        try await backend.firestore.create(h1, ["a": 1])
        try await backend.firestore.update(h1, ["a": .set(1)])  // no-op
        try await backend.firestore.update(h1, ["a": .set(2)])
        try await backend.firestore.delete(h1)
        await backend.waitUntilIdle()
        let kinds = await events.events.map(\.kind)
        #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.create, .delete, .update])
        let update = await events.events.first { $0.kind == .update }!
        #expect(update.before["a"] == 1 && update.after["a"] == 2)
        #expect(update.eventId == "honors/h1@v2")
    }

    @Test func queryFiltersAndSortsById() async throws {
        let backend = makeBackend()
        for id in ["c", "a", "b"] { try await backend.firestore.create(DocumentPath("s", id), ["k": id == "b" ? 1 : 0]) }
        #expect(backend.firestore.query("s").map(\.id) == ["a", "b", "c"])
        #expect(backend.firestore.query("s") { $0["k"] == 0 }.map(\.id) == ["a", "c"])
    }
}

actor EventLog {
    var events: [TriggerEvent] = []
    func add(_ event: TriggerEvent) { events.append(event) }
}
