import Domain
import Foundation
@testable import SimulatedFirebase
import Testing

/// Which queries production refuses for want of an index (docs/domain.md, "Indexes"; Firestore
/// docs, "Index types"): the emulator runs them all, so these are held to the documentation.
@Suite struct QueryIndexTests {
    static let deployed = FirestoreIndexes([
        CompositeIndex("c", [.init("a", .ascending), .init("b", .ascending)]),
        CompositeIndex("m", [.init("x", .ascending), .init("t", .descending)]),
        CompositeIndex("m", [.init("y", .descending), .init("t", .descending)]),
    ])

    static func refused(_ query: Query, _ indexes: FirestoreIndexes = .none) -> Bool {
        do {
            try indexes.check(query, project: "p")
            return false
        } catch {
            return true
        }
    }

    @Test(arguments: [
        (Query("c"), false),
        (Query("c", filter: .field("a", .equal, 1)), false),
        (Query("c", filter: .and([.field("a", .equal, 1), .field("b", .in, [2, 3])])), false),
        (Query("c", filter: .field("a", .greaterThan, 1)), false),
        (Query("c", orderBy: [.init("a", descending: true)]), false),
        (Query("c", filter: .field("a", .lessThan, 1), orderBy: [.init("a")]), false),
        (Query("c", filter: .and([.field("tags", .arrayContains, 1), .field("a", .equal, 1)])), false),
        (Query("c", filter: .field("a", .equal, 1), orderBy: [.init("a")]), false),
        (Query("c", filter: .or([.field("a", .equal, 1), .field("b", .equal, 2)])), false),
        (Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b")]), true),
        (Query("c", filter: .and([.field("a", .equal, 1), .field("b", .greaterThan, 2)])), true),
        (Query("c", filter: .and([.field("a", .greaterThan, 1), .field("b", .lessThan, 2)])), true),
        (Query("c", orderBy: [.init("a"), .init("b")]), true),
        (Query("c", filter: .field("tags", .arrayContains, 1), orderBy: [.init("a")]), true),
        (Query("c", filter: .or([.field("a", .equal, 1), .field("b", .equal, 2)]), orderBy: [.init("t")]), true),
        (Query("c", allDescendants: true), false),
        (Query("c", allDescendants: true, filter: .field("a", .equal, 1)), true),
        (Query("c", allDescendants: true, orderBy: [.init("a")]), true),
    ] as [(Query, Bool)])
    func withNoIndexDeployed(query: Query, refused: Bool) {
        #expect(Self.refused(query) == refused, "\(query)")
    }

    /// A composite index serves its equality fields (either direction) then its order fields
    /// exactly: `limitToLast` is sent flipped, so it needs the reverse order; merging indexes that
    /// end in the same order field serves several equalities.
    @Test func aDeployedIndexServesExactlyItsShape() {
        #expect(!Self.refused(Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b")]), Self.deployed))
        #expect(!Self.refused(Query("c", filter: .and([.field("a", .in, [1, 2]), .field("b", .greaterThanOrEqual, 2)])), Self.deployed))
        #expect(Self.refused(Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b", descending: true)]), Self.deployed))
        #expect(Self.refused(Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b")], limit: 2, limitToLast: true), Self.deployed))
        #expect(Self.refused(Query("c", filter: .field("b", .equal, 1), orderBy: [.init("a")]), Self.deployed), "(a, b) is not (b, a)")
        #expect(Self.refused(Query("c", filter: .and([.field("a", .equal, 1), .field("z", .equal, 1)]), orderBy: [.init("b")]), Self.deployed))
        let merged = Query("m", filter: .and([.field("x", .equal, 1), .field("y", .equal, 2)]), orderBy: [.init("t", descending: true)])
        #expect(!Self.refused(merged, Self.deployed), "(x, t desc) and (y, t desc) merge")
        #expect(Self.refused(Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b")]), .none))
        #expect(!Self.refused(Query("c", orderBy: [.init("a"), .init("b")]), .anyQuery), "the emulator runs anything")
    }

    /// The error production gives: FAILED_PRECONDITION, its sentence, and a console link whose
    /// `create_composite` is the index as a protobuf message (ending in `__name__`).
    @Test func theErrorNamesTheIndexToCreate() throws {
        let query = Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b", descending: true)])
        do {
            try FirestoreIndexes.none.check(query, project: "p")
            Issue.record("refused nothing")
        } catch {
            guard case .failedPrecondition(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.hasPrefix("The query requires an index. You can create it here: https://console.firebase.google.com/v1/r/project/p/firestore/indexes?create_composite="))
            #expect(message.contains(#"{"collectionGroup": "c", "queryScope": "COLLECTION", "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "b", "order": "DESCENDING"}]}"#))
            let encoded = String(message.split(separator: "create_composite=")[1].split(separator: " ")[0])
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            let bytes = try #require(Data(base64Encoded: padded))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("projects/p/databases/(default)/collectionGroups/c/indexes/_"))
            #expect(bytes.starts(with: [0x0A]) && text.contains("\u{1A}\u{05}\u{0A}\u{01}a\u{10}\u{01}") && text.contains("\u{0A}\u{01}b\u{10}\u{02}"))
            #expect(text.contains("__name__"))
        }
    }

    /// `firestore.indexes.json` as firebase-tools writes it; a malformed file is one line.
    @Test func indexFilesParseAndBadOnesSayWhy() throws {
        let indexes = try FirestoreIndexes(json: """
            {"indexes": [{"collectionGroup": "c", "queryScope": "COLLECTION", "fields": [{"fieldPath": "a", "order": "ASCENDING"}, {"fieldPath": "tags", "arrayConfig": "CONTAINS"}]}],
             "fieldOverrides": [{"collectionGroup": "g", "fieldPath": "a", "indexes": [{"order": "ASCENDING", "queryScope": "COLLECTION_GROUP"}, {"order": "ASCENDING", "queryScope": "COLLECTION"}]}]}
            """)
        #expect(indexes.indexes == [CompositeIndex("c", [.init("a", .ascending), .init("tags", .contains)])])
        #expect(indexes.groupFields == [.init("g", .init("a", .ascending))])
        #expect(!Self.refused(Query("g", allDescendants: true, filter: .field("a", .equal, 1)), indexes))
        #expect(SafeNSoundApp.indexes.indexes.count == 1)
        #expect(throws: FirestoreIndexes.FileError.self) { try FirestoreIndexes(json: "{\"indexes\": [{\"collectionGroup\": \"c\", \"fields\": [{\"fieldPath\": \"a\"}]}]}") }
        #expect(throws: FirestoreIndexes.FileError.self) { try FirestoreIndexes(json: "not json") }
    }

    /// The admin and client paths refuse a query needing an index until it is deployed; SafeNSound's
    /// due-alert query is one, and its app deploys the index.
    @Test func queriesAreRefusedUntilTheirIndexIsDeployed() async throws {
        let backend = makeBackend()
        let dueAlerts = { () async throws(BackendError) -> [DocumentSnapshot] in
            try await backend.firestore.fetch("scheduled_alerts", whereField: "status", isEqualTo: "scheduled", orderedBy: "scheduledFor")
        }
        await #expect(throws: BackendError.self) { _ = try await dueAlerts() }
        let composite = Query("c", filter: .field("a", .equal, 1), orderBy: [.init("b")])
        await #expect(throws: BackendError.self) { _ = try await backend.firestore.fetch(composite) }
        backend.setRules(.allowAll)
        let client = backend.client(auth: AuthContext(uid: "u"), label: "u")
        await #expect(throws: BackendError.self) { _ = try await client.query(composite) }
        backend.setIndexes(FirestoreIndexes(SafeNSoundApp.indexes.indexes + Self.deployed.indexes))
        _ = try await dueAlerts()
        _ = try await backend.firestore.fetch(composite)
        _ = try await client.query(composite)
    }
}
