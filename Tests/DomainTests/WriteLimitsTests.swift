import SimulatedFirebase
import Testing

/// Firestore's limits on names and nesting, as the emulator answers them (each case below was a
/// mismatch of the conformance oracle before the simulation modelled it; docs/domain.md).
@Suite struct WriteLimitsTests {
    static func code(_ body: @escaping @Sendable (Firestore) async throws -> Void) throws -> String {
        try onSimulator(seed: 1) { env in
            let backend = Backend(env: env, faults: .none)
            do { try await body(backend.firestore) } catch { return (error as? BackendError)?.code ?? "\(error)" }
            return "OK"
        }
    }

    static func nested(_ depth: Int) -> Value {
        var value: Value = "leaf"
        for _ in 0..<depth { value = .map(["k": value]) }
        return value
    }

    @Test func idsAndFieldNamesPastTheLimitsAreRefused() throws {
        for id in [".", "..", "__x__", String(repeating: "i", count: 1_501)] {
            #expect(try Self.code { _ = try await $0.set(DocumentPath("c", id), ["a": 1]) } == "INVALID_ARGUMENT", "id \(id.prefix(8))")
        }
        for id in ["...", "__x_", String(repeating: "i", count: 1_500)] {
            #expect(try Self.code { _ = try await $0.set(DocumentPath("c", id), ["a": 1]) } == "OK", "id \(id.prefix(8))")
        }
        #expect(try Self.code { _ = try await $0.set(DocumentPath("__c__", "d"), ["a": 1]) } == "INVALID_ARGUMENT")
        for name in ["__x__", "", String(repeating: "f", count: 1_501)] {
            #expect(try Self.code { _ = try await $0.set(DocumentPath("c", "d"), [name: 1]) } == "INVALID_ARGUMENT", "field \(name.prefix(8))")
            #expect(try Self.code { _ = try await $0.set(DocumentPath("c", "d"), ["m": .map([name: 1])]) } == "INVALID_ARGUMENT", "nested field \(name.prefix(8))")
        }
        #expect(try Self.code { _ = try await $0.update(DocumentPath("c", "d"), ["m.__x__": .set(1)]) } == "INVALID_ARGUMENT")
        // A delete stores nothing: a long id is no problem.
        #expect(try Self.code { try await $0.commitBatch([(DocumentPath("c", String(repeating: "i", count: 1_501)), .delete)]) } == "OK")
    }

    @Test func mapsAndArraysNestTwentyDeep() throws {
        #expect(try Self.code { _ = try await $0.set(DocumentPath("c", "d"), ["m": Self.nested(20)]) } == "OK")
        #expect(try Self.code { _ = try await $0.set(DocumentPath("c", "d"), ["m": Self.nested(21)]) } == "INVALID_ARGUMENT")
        #expect(try Self.code { _ = try await $0.set(DocumentPath("c", "d"), ["m": .array([Self.nested(20)])]) } == "INVALID_ARGUMENT")
    }

    @Test func namesAndNestingAreJudgedOnTheDocumentACommitLeavesBeforeAnyPrecondition() throws {
        let path = DocumentPath("c", "d")
        // An empty name a later write of the commit replaces is no problem; a reserved one is.
        #expect(try Self.code { try await $0.commitBatch([(path, .set(["": 1])), (path, .set(["a": 1]))]) } == "OK")
        #expect(try Self.code { try await $0.commitBatch([(path, .set(["__x__": 1])), (path, .set(["a": 1]))]) } == "INVALID_ARGUMENT")
        // Too deep and failing its precondition: INVALID_ARGUMENT, not NOT_FOUND.
        #expect(try Self.code { _ = try await $0.update(path, ["m": .set(Self.nested(21))]) } == "INVALID_ARGUMENT")
        #expect(try Self.code { try await $0.commitBatch([(DocumentPath("c", "e"), .set(["": 1])), (path, .update(["a": .set(1)]))]) } == "INVALID_ARGUMENT")
        #expect(try Self.code { try await $0.commitBatch([(path, .update(["a": .set(1)]))]) } == "NOT_FOUND")
    }
}
