import Sim
@testable import SimulatedFirebase
import Testing

/// A read never sees part of a commit (docs/domain.md, "Reads see whole commits").
@Suite struct CommitVisibilityTests {
    /// A writer commits `pairs-a/a` and `pairs-b/b` (installed in that order) together, each time one higher; a reader reads `a`,
    /// then `b` (or queries `b`'s collection). Having seen `a` at n, it must see `b` at n or more.
    /// Returns how many reads saw `b` behind `a`, over `seeds`.
    private func tornReads(seeds: ClosedRange<UInt64>, queryingB: Bool) throws -> Int {
        var torn = 0
        for seed in seeds {
            torn += try onSimulator(seed: seed) { env in
                let backend = Backend(env: env, faults: .none)
                let firestore = backend.firestore
                let a = DocumentPath("pairs-a", "a"), b = DocumentPath("pairs-b", "b")
                async let written: Void = {
                    for n in Int64(1)...8 {
                        try await firestore.runTransaction { transaction in
                            transaction.set(a, ["n": .int(n)])
                            transaction.set(b, ["n": .int(n)])
                        }
                    }
                }()
                var torn = 0
                for _ in 1...24 {
                    let seenA = await firestore.snapshot(a)["n"]?.intValue ?? 0
                    let seenB = queryingB
                        ? await firestore.fetch("pairs-b").first?["n"]?.intValue ?? 0
                        : await firestore.snapshot(b)["n"]?.intValue ?? 0
                    if seenB < seenA { torn += 1 }
                }
                try await written
                return torn
            }
        }
        return torn
    }

    @Test func aDocumentReadAfterAnotherSeesTheRestOfItsCommit() throws {
        #expect(try tornReads(seeds: 1...60, queryingB: false) == 0)
    }

    @Test func aQueryAfterADocumentReadSeesTheRestOfItsCommit() throws {
        #expect(try tornReads(seeds: 1...60, queryingB: true) == 0)
    }
}
