import Domain
import SimulatedFirebase
import Testing

/// The ledger's tallies are an array indexed by `FaultKind.ordinal`: the ordinal must be each
/// kind's own position, and the tallies must read back by kind as they were counted.
@Suite struct FaultLedgerTests {
    @Test func ordinalsAreTheCasePositions() {
        #expect(FaultKind.allCases.enumerated().map(\.offset) == FaultKind.allCases.map(\.ordinal))
    }

    @Test func talliesReadBackByKind() {
        let ledger = FaultLedger()
        for (position, kind) in FaultKind.allCases.enumerated() {
            for _ in 0...position { ledger.opportunity(kind, probability: 0.5) }
            if position % 2 == 0 { ledger.observe(kind, subject: "s") }
        }
        ledger.opportunity(.networkFailure, probability: 0)  // no chance: not counted
        let tallies = ledger.tallies
        #expect(tallies.count == FaultKind.allCases.count)
        for (position, kind) in FaultKind.allCases.enumerated() {
            #expect(tallies[kind]?.opportunities == position + 1, "\(kind)")
            #expect(tallies[kind]?.observed == (position % 2 == 0 ? 1 : 0), "\(kind)")
            #expect(tallies[kind]?.expectedBillionths == UInt64(position + 1) * 500_000_000, "\(kind)")
        }
        let untouched = FaultLedger()
        untouched.opportunity(.emailTimeout, probability: 0.1)
        #expect(Array(untouched.tallies.keys) == [.emailTimeout], "a kind with no chance and no observation is absent")
    }
}
