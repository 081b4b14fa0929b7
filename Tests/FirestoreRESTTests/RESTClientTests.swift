import Foundation
import FirestoreREST
import RehearsalTestSupport
import SimulatedFirebase
import Testing

/// The REST client against Google's Firestore emulator: every value type round-trips, the SDKs'
/// write forms (create, set, merge, update, delete, transforms) land as the simulated Firebase
/// applies them, preconditions answer with Firestore's codes, and transactions read and commit.
@Suite(.needsFirestoreEmulator, .tags(.subprocess)) struct RESTClientTests {
    @Test func everyValueTypeRoundTrips() async throws {
        let client = try await SharedEmulator.shared.freshClient("values")
        let fields: Fields = [
            "null": .null, "flag": true, "int": .int(Int64.max), "negative": -7, "double": 0.1, "nan": .double(.nan),
            "infinity": .double(.infinity), "text": "héllo ✓", "when": .timestamp(Timestamp(unixNanoseconds: 1_767_225_600_123_456_000)),
            "list": [1, "two", ["three": 3]], "map": ["nested": ["deep": 1.5], "odd key": "x"],
        ]
        let path = DocumentPath("values", "v1")
        try await client.commit([RESTWrite(.set(fields), at: path)])
        let read = try #require(try await client.get(path).fields)
        #expect(read.keys.sorted() == fields.keys.sorted())
        for (key, value) in fields where key != "nan" { #expect(read[key] == value, "\(key): \(String(describing: read[key])) vs \(value)") }
        #expect(read["nan"]?.doubleValue?.isNaN == true)
    }

    @Test func theSDKsWriteFormsLandAsTheSimulationAppliesThem() async throws {
        let client = try await SharedEmulator.shared.freshClient("writes")
        let path = DocumentPath("docs", "d1")
        try await client.commit([RESTWrite(.create(["a": 1, "tags": ["x"], "map": ["k": 1, "j": 2]]), at: path)])
        try await client.commit([RESTWrite(.update(["a": .increment(2), "tags": .arrayUnion(["y", "x"]), "map.k": .delete, "b": .set("new")]), at: path)])
        let read = try #require(try await client.get(path).fields)
        #expect(read == ["a": 3, "tags": ["x", "y"], "map": ["j": 2], "b": "new"])
        try await client.commit([RESTWrite(.delete, at: path)])
        #expect(try await client.get(path).fields == nil)
    }

    @Test func preconditionsAnswerWithFirestoresCodes() async throws {
        let client = try await SharedEmulator.shared.freshClient("preconditions")
        let path = DocumentPath("docs", "p1")
        try await client.commit([RESTWrite(.create(["n": 1]), at: path)])
        await #expect(throws: RESTError.self) { try await client.commit([RESTWrite(.create(["n": 2]), at: path)]) }
        do {
            try await client.commit([RESTWrite(.create(["n": 2]), at: path)])
        } catch {
            #expect(error.code == "ALREADY_EXISTS", "\(error)")
        }
        do {
            try await client.commit([RESTWrite(.update(["n": .set(3)]), at: DocumentPath("docs", "missing"))])
            Issue.record("an update of a missing document committed")
        } catch {
            #expect(error.code == "NOT_FOUND", "\(error)")
        }
    }

    @Test func aTransactionReadsThroughBatchGetAndCommits() async throws {
        let client = try await SharedEmulator.shared.freshClient("transactions")
        let path = DocumentPath("counters", "c1")
        try await client.commit([RESTWrite(.set(["n": 1]), at: path)])
        let transaction = try await client.beginTransaction()
        let read = try await client.get(path, transaction: transaction)
        #expect(read.fields?["n"] == 1)
        try await client.commit([RESTWrite(.set(["n": 2]), at: path)], transaction: transaction)
        #expect(try await client.get(path).fields?["n"] == 2)
        let readOnly = try await client.beginTransaction(readOnly: true)
        #expect(try await client.get(path, transaction: readOnly).fields?["n"] == 2)
        try await client.rollback(readOnly)
    }

    /// A sub-collection under an id with a space, a `%` and a non-ASCII letter: the parent travels in
    /// the URL, percent-encoded once.
    @Test func aSubCollectionUnderAnOddIdIsQueried() async throws {
        let client = try await SharedEmulator.shared.freshClient("odd")
        let parent = DocumentPath("users", "odd id 100% é")
        try await client.commit([RESTWrite(.set(["n": 1]), at: parent.child("notes", "n1")), RESTWrite(.set(["n": 2]), at: parent.child("notes", "n2"))])
        let found = try await client.runQuery(Query(parent.child("notes", "x").collection, filter: .field("n", .greaterThan, 1)))
        #expect(found.map(\.path.id) == ["n2"])
        #expect(found.first?.path.collection == "users/odd id 100% é/notes")
    }

    @Test func anUnreachableServerIsUnavailable() async throws {
        let port = 1  // nothing listens on port 1 of loopback
        let client = FirestoreRESTClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, project: "demo-none")
        do {
            _ = try await client.get(DocumentPath("a", "b"))
            Issue.record("a read from a closed port succeeded")
        } catch {
            #expect(error.code == "UNAVAILABLE", "\(error)")
        }
    }
}
