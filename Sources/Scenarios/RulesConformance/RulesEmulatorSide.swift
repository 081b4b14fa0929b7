import FirestoreREST
import SimulatedFirebase

/// A real Firestore (the emulator) in a project of its own with a world's rules file loaded:
/// documents stored as the owner (past the rules), requests sent with each caller's ID token.
struct RulesEmulatorSide: Sendable {
    /// The owner's client of the program's project.
    let owner: FirestoreRESTClient

    /// Empties the project (a program run again, as its replay line does, meets only its own
    /// documents), loads the rules file and stores `documents`.
    func prepare(_ world: RulesWorld, _ documents: [(DocumentPath, Fields)]) async throws(RESTError) {
        try await owner.resetEmulator()
        try await owner.loadRules(world.rulesText)
        if !documents.isEmpty { try await owner.commit(documents.map { RESTWrite(.set($0.1), at: $0.0) }) }
    }

    /// The decision on `request`; a transport failure is thrown (the program is void).
    func decide(_ request: RulesRequest) async throws(RESTError) -> RulesDecision {
        let client = owner.speaking(for: request.caller.map { .user(uid: $0.uid, email: $0.email) } ?? .anonymous)
        do {
            switch request.action {
            case .get(let path): _ = try await client.get(path)
            case .list(let query): _ = try await client.runQuery(query)
            case .create(let path, let fields): try await client.commit([RESTWrite(.create(fields), at: path)])
            case .update(let path, let fields): try await client.commit([RESTWrite(.set(fields), at: path)])
            case .delete(let path): try await client.commit([RESTWrite(.delete, at: path)])
            }
            return .allowed
        } catch {
            guard case .status(let code, _, _) = error else { throw error }
            return RulesDecision(code: code)
        }
    }
}
