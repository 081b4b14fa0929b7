import Bank
import BankScenarios
import RehearsalTesting
import Testing

/// Two transfers of 80 out of 100, concurrently; fails the run if the account went negative.
func twoTransfers(checksThenActs: Bool) async throws {
    let bank = Bank(checksThenActs: checksThenActs)
    let shared = Account("shared", balance: 100)
    async let first = bank.transfer(80, from: shared, to: Account("bob", balance: 0))
    async let second = bank.transfer(80, from: shared, to: Account("carol", balance: 0))
    _ = await (first, second)
    let balance = await shared.balance
    try Rehearsal.check(balance >= 0, "overdrawn: shared account at \(balance)")
}

@Suite struct BankTests {
    @Test func theSimulatorFindsTheCheckThenActRace() {
        // The race is real: the sweep finds it, shrinks it and records the issue with its replay
        // call (withKnownIssue keeps this example green; a real test would just call sweep).
        var failure: RehearsalFailure?
        withKnownIssue { failure = Rehearsal.sweep(seeds: 0..<100) { try await twoTransfers(checksThenActs: true) } }
        #expect(failure?.message.contains("overdrawn: shared account at -60") == true)
    }

    @Test func theFixedBankSurvivesEverySchedule() {
        #expect(Rehearsal.sweep(seeds: 0..<200) { try await twoTransfers(checksThenActs: false) } == nil)
    }

    @Test func theScenarioCatchesTheRaceAndPassesTheCarefulDesign() {
        #expect(Rehearsal.sweep(TransferRaceScenario(), seeds: 0..<100) == nil)
        var failure: RehearsalFailure?
        withKnownIssue { failure = Rehearsal.sweep(TransferRaceScenario(), seeds: 0..<100, variant: "check-then-act") }
        #expect(failure?.message.contains("no-overdraft") == true)
    }

    @Test func productionCodeRunsOutsideASimulation() async {
        let shared = Account("shared", balance: 100)
        let bob = Account("bob", balance: 0)
        #expect(await Bank().transfer(30, from: shared, to: bob))
        #expect(await shared.balance == 70)
        #expect(await bob.balance == 30)
    }
}
