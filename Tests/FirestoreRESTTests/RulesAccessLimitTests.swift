import FirestoreREST
import RehearsalTestSupport
import SimulatedFirebase
import Testing

/// Rules' `get()`/`exists()` limit per request (docs/domain.md, "Rules"), held to the emulator: the
/// same requests, each reading a number of distinct documents in its rules, are allowed or denied
/// alike by the emulator loaded with a rules file and by the simulation's Swift rules.
@Suite struct RulesAccessLimitTests {
    /// A collection whose every rule reads `refs/a<i>` for each `i` in `reads` (all exist).
    struct Reader {
        let collection: String
        let reads: [Int]
    }

    static let readers = [
        Reader(collection: "ten", reads: Array(0..<10)),
        Reader(collection: "eleven", reads: Array(0..<11)),
        Reader(collection: "same", reads: Array(repeating: 0, count: 11)),
        Reader(collection: "tenB", reads: Array(10..<20)),
        Reader(collection: "oneC", reads: [20]),
        Reader(collection: "twenty", reads: Array(0..<20)),
        Reader(collection: "twentyOne", reads: Array(0..<21)),
    ]

    /// One request and whether it reaches past its limit.
    enum Request: CustomStringConvertible {
        case get(String)
        case commit([String])
        case list(String)

        var description: String {
            switch self {
            case .get(let collection): "get \(collection)/d"
            case .commit(let paths): "commit of \(paths)"
            case .list(let collection): "list \(collection)"
            }
        }
    }

    /// Each request with the decision the limits give it: 10 distinct documents for a get or for
    /// each write of a commit, 20 for a query and for all the writes of a commit together; a
    /// document read twice counts once.
    static let cases: [(Request, allowed: Bool)] = [
        (.get("ten"), true), (.get("eleven"), false), (.get("same"), true),
        (.commit(["ten/w"]), true), (.commit(["eleven/w"]), false),
        (.commit(["ten/w", "tenB/w"]), true), (.commit(["ten/w", "tenB/w", "oneC/w"]), false), (.commit(["eleven/w", "ten/w"]), false),
        (.commit(["ten/w", "ten/v", "tenB/w"]), true),
        (.list("twenty"), true), (.list("twentyOne"), false),
    ]

    static var rulesText: String {
        let matches = readers.map { reader in
            let condition = reader.reads.map { "exists(/databases/$(db)/documents/refs/a\($0))" }.joined(separator: " && ")
            return "    match /\(reader.collection)/{id} { allow read, write: if \(condition); }"
        }
        return """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{db}/documents {
            match /refs/{id} { allow read, write: if true; }
        \(matches.joined(separator: "\n"))
          }
        }
        """
    }

    static var rules: SecurityRules {
        var rules = SecurityRules()
        rules.match("refs") { _ in true }
        for reader in readers {
            rules.match(reader.collection) { request in reader.reads.allSatisfy { request.lookup(DocumentPath("refs", "a\($0)")) != nil } }
        }
        return rules
    }

    static let seeded: [(DocumentPath, Fields)] =
        (0...20).map { (DocumentPath("refs", "a\($0)"), ["x": 1]) } + readers.map { (DocumentPath($0.collection, "d"), ["x": 1]) }

    /// `collection/id` as a path.
    static func path(_ text: String) -> DocumentPath {
        let parts = text.split(separator: "/").map(String.init)
        return DocumentPath(parts[0], parts[1])
    }

    func simulated(_ request: Request, on backend: Backend) async -> Bool {
        let client = backend.client(auth: nil, label: "device")
        do {
            switch request {
            case .get(let collection): _ = try await client.get(DocumentPath(collection, "d"))
            case .commit(let paths) where paths.count == 1: try await client.setData(Self.path(paths[0]), ["x": 2])
            case .commit(let paths):
                try await client.runTransaction { tx in for path in paths { tx.set(Self.path(path), ["x": 2]) } }
            case .list(let collection): _ = try await client.query(Query(collection))
            }
            return true
        } catch {
            return false
        }
    }

    func real(_ request: Request, on client: FirestoreRESTClient) async throws -> Bool {
        do {
            switch request {
            case .get(let collection): _ = try await client.get(DocumentPath(collection, "d"))
            case .commit(let paths): try await client.commit(paths.map { RESTWrite(.set(["x": 2]), at: Self.path($0)) })
            case .list(let collection): _ = try await client.runQuery(Query(collection))
            }
            return true
        } catch {
            guard case .status(let code, _, _) = error, code == "PERMISSION_DENIED" else { throw error }
            return false
        }
    }

    @Test func theSimulationDeniesARequestWhoseRulesReadPastItsLimit() async throws {
        let backend = Backend(env: .realRuntime(seed: 1, epochUnixNanoseconds: 1_767_225_600_000_000_000), faults: .none)
        backend.setRules(Self.rules)
        for (path, fields) in Self.seeded { try await backend.firestore.set(path, fields) }
        for (request, allowed) in Self.cases {
            #expect(await simulated(request, on: backend) == allowed, "\(request)")
        }
        #expect(backend.faultLedger.tallies[.rulesAccessLimit]?.observed == Self.cases.filter { !$0.allowed }.count)
    }

    @Test(.needsFirestoreEmulator, .tags(.subprocess)) func theEmulatorDecidesAsTheSimulation() async throws {
        let emulator = try await SharedEmulator.shared.emulator()
        let owner = FirestoreRESTClient(baseURL: emulator.baseURL, project: "demo-rules-access").speaking(for: .owner)
        try await owner.resetEmulator()
        try await owner.loadRules(Self.rulesText)
        try await owner.commit(Self.seeded.map { RESTWrite(.set($0.1), at: $0.0) })
        let anonymous = owner.speaking(for: .anonymous)
        for (request, allowed) in Self.cases {
            #expect(try await real(request, on: anonymous) == allowed, "\(request)")
        }
    }
}
