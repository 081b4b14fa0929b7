import Foundation
import SimulatedFirebase

/// The simulated Firebase with a world's Swift rules deployed: no faults, no latency, one device
/// per caller; requests go through the client SDK, so the rules are judged where the apps' are.
final class RulesSimulatedSide {
    private let backend: Backend
    private var devices: [String: FirestoreClient] = [:]

    init(_ world: RulesWorld, seed: UInt64) {
        backend = Backend(env: .realRuntime(seed: seed, epochUnixNanoseconds: 1_767_225_600_000_000_000), faults: .none)
        backend.setIndexes(.anyQuery)  // as the emulator: it runs any query, indexed or not
        backend.setRules(world.rules)
    }

    deinit { backend.terminate() }

    /// Stores `documents` past the rules (the admin SDK).
    func store(_ documents: [(DocumentPath, Fields)]) async {
        _ = try? await backend.firestore.commitBatch(documents.map { ($0.0, .set($0.1)) })
    }

    /// The decision on `request`.
    func decide(_ request: RulesRequest) async -> RulesDecision {
        let device = device(request.caller)
        do {
            switch request.action {
            case .get(let path): _ = try await device.get(path)
            case .list(let query): _ = try await device.query(query)
            case .create(let path, let fields), .update(let path, let fields): try await device.setData(path, fields)
            case .delete(let path): try await device.delete(path)
            }
            return .allowed
        } catch {
            return RulesDecision(code: error.code)
        }
    }

    private func device(_ caller: AuthContext?) -> FirestoreClient {
        let label = caller?.uid ?? "(signed out)"
        if let device = devices[label] { return device }
        let device = backend.client(auth: caller, label: label)
        devices[label] = device
        return device
    }
}
