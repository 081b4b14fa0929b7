/// A documented difference between the simulated Firebase and a real Firestore: either the
/// emulator differs from production (production wins; the simulation follows production or the
/// documented SDK behaviour) or the simulation does not model the behaviour yet. The
/// "Known divergences" table of docs/real-firestore.md lists the same names (a test keeps the two
/// equal); a mismatch no entry explains fails the oracle.
public struct KnownDivergence: Sendable, Hashable {
    /// Its name in docs/real-firestore.md.
    public var name: String
    /// `emulator` (the emulator differs from production) or `open` (the simulation differs).
    public var source: String
    /// Whether a mismatch falls under it: the differing step (nil: the final state) and both answers.
    let explains: @Sendable (_ step: ConformanceStep?, _ simulated: ConformanceOutcome, _ real: ConformanceOutcome) -> Bool

    public static func == (a: KnownDivergence, b: KnownDivergence) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every documented divergence, in the order docs/real-firestore.md lists them.
    public static let all: [KnownDivergence] = [insertAfterWrite]

    /// The emulator refuses a create (or an update) of a document an earlier write of the same
    /// commit already wrote: "Cannot upsert then insert an entity in the same request", a rule of
    /// the Datastore engine under it. The SDKs' batches apply their writes in order.
    static let insertAfterWrite = KnownDivergence(name: "precondition-after-write-in-one-commit", source: "emulator") { step, _, real in
        guard real.code == "INVALID_ARGUMENT", let writes = step?.writes else { return false }
        return writes.indices.contains { index in
            writes[index].hasPrecondition && writes[..<index].contains { $0.path == writes[index].path }
        }
    }

    /// The first entry that explains a mismatch, or nil.
    static func explaining(_ step: ConformanceStep?, _ simulated: ConformanceOutcome, _ real: ConformanceOutcome) -> KnownDivergence? {
        all.first { $0.explains(step, simulated, real) }
    }
}

extension ConformanceStep {
    /// The writes of a commit or transaction (nil for reads and queries: nothing committed).
    var writes: [ConformanceWrite]? {
        switch self {
        case .commit(let writes), .transaction(_, let writes): writes
        case .get, .query, .readOnlyTransaction: nil
        }
    }
}

extension ConformanceWrite {
    /// Whether the server checks a precondition (create: missing; update: exists).
    var hasPrecondition: Bool {
        switch operation {
        case .create, .update: true
        case .set, .merge, .delete: false
        }
    }
}
