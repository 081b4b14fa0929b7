import Conformance
import FirestoreREST
import SimulatedFirebase

/// The rules differential: a world's requests drawn from a seed, decided by the simulated
/// Firebase under the app's Swift rules and by a real Firestore loaded with the app's rules file,
/// compared one by one. A program stops at its first mismatch (the two states may differ after it).
public struct RulesOracle: Sendable {
    /// The owner's client of the real server.
    let client: FirestoreRESTClient
    /// A prefix for the per-program project ids.
    let projectPrefix: String

    /// An oracle against the server `client` speaks to.
    public init(client: FirestoreRESTClient, projectPrefix: String = "demo-rules") {
        self.client = client
        self.projectPrefix = projectPrefix
    }

    /// One program's outcome.
    public struct Result: Sendable {
        /// The app.
        public var app: String
        /// The program's seed.
        public var seed: UInt64
        /// The operations of the requests both decided alike, with the shared decision.
        public var agreed: [(RuleOperation, RulesDecision)]
        /// The first mismatch, nil when every request agreed.
        public var mismatch: RulesMismatch?
    }

    /// Runs `requests` requests of `world` drawn from `seed` on both sides.
    public func check(_ world: RulesWorld, seed: UInt64, requests: Int) async throws(RESTError) -> Result {
        var generator = RulesGenerator(world: world, seed: seed)
        let initial = generator.initialState()
        let simulated = RulesSimulatedSide(world, seed: seed)
        await simulated.store(initial)
        let real = RulesEmulatorSide(owner: client.inProject("\(projectPrefix)-\(world.app)-\(seed)"))
        try await real.prepare(world, initial)
        var state = Dictionary(initial, uniquingKeysWith: { $1 })
        var result = Result(app: world.app, seed: seed, agreed: [], mismatch: nil)
        for index in 0..<requests {
            let request = generator.next(state)
            let mine = await simulated.decide(request), theirs = try await real.decide(request)
            guard mine == theirs else {
                var mismatch = RulesMismatch(
                    app: world.app, seed: seed, index: index, request: request, simulated: mine, real: theirs,
                    state: state.keys.sorted { $0.description < $1.description }.map { ($0, state[$0]!) }, known: nil)
                mismatch.known = RulesKnownDivergence.explaining(mismatch)
                result.mismatch = mismatch
                return result
            }
            result.agreed.append((request.operation, mine))
            if mine == .allowed { Self.apply(request, to: &state) }
        }
        return result
    }

    static func apply(_ request: RulesRequest, to state: inout [DocumentPath: Fields]) {
        switch request.action {
        case .get, .list: break
        case .create(let path, let fields), .update(let path, let fields): state[path] = fields
        case .delete(let path): state[path] = nil
        }
    }
}
