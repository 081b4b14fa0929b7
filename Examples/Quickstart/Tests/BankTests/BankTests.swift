import Foundation
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
    @Test func theSimulatorFindsTheCheckThenActRace() throws {
        // expectFailure fails the test when nothing was simulated, every run passed, or another bug
        // was found; it returns the failure (shrunk, with its replay call) without recording it.
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<100, matching: { $0.message.contains("overdrawn") }) {
            try await twoTransfers(checksThenActs: true)
        })
        #expect(failure.message.contains("overdrawn: shared account at -60"))
        #expect(failure.preemptionsAfter >= 1 && failure.preemptionsAfter <= failure.preemptionsBefore)
        // The printed replay reproduces it: expectFailure(replaying:) fails the test if it passes or fails otherwise.
        Rehearsal.expectFailure(replaying: failure, matching: { $0.contains("overdrawn") }) { try await twoTransfers(checksThenActs: true) }
    }

    /// docs/test-your-own-actors.md shows what this failure prints: the block there is this
    /// output (the build line aside: it names the binary), so the page cannot drift from it.
    @Test func theDocsShowTheFailureThisSweepPrints() throws {
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<200) { try await twoTransfers(checksThenActs: true) })
        let printed = failure.description.replacing(/same build: [^)]*\)/, with: "same build: …)")
        let docs = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../../../docs/test-your-own-actors.md")
        let page = try String(contentsOf: docs.standardized, encoding: .utf8)
        let marker = "Rehearsal found a failure at seed"
        let start = try #require(page.range(of: marker))
        let block = page[start.lowerBound...].prefix { $0 != "`" }.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(block == printed, "docs/test-your-own-actors.md shows:\n\(block)\nthe sweep prints:\n\(printed)")
    }

    @Test func theFixedBankSurvivesEverySchedule() {
        #expect(Rehearsal.sweep(seeds: 0..<200) { try await twoTransfers(checksThenActs: false) } == nil)
    }

    @Test func exploreProvesTheFixedBankWithinTwoPreemptions() throws {
        // Every schedule with at most two preemptions, not a sample: a proof within the bound.
        let exploration = try #require(Rehearsal.explore(preemptionBound: 2) { try await twoTransfers(checksThenActs: false) })
        #expect(exploration.complete)
        #expect(exploration.summary.hasPrefix("all \(exploration.schedules) schedules with ≤ 2 preemptions explored: no failure"))
        // The racy bank fails at one preemption: the fewest any failing schedule has.
        let failure = try #require(Rehearsal.expectFailure(preemptionBound: 2) { try await twoTransfers(checksThenActs: true) })
        #expect(failure.preemptionsAfter == 1)
    }

    @Test func systemRandomnessIsCaughtNotTrusted() throws {
        // A body that draws from the system generator would run differently under the same seed:
        // inside a simulation it is an escape that names the task, at the first seed.
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<10) { _ = Int.random(in: 0..<100) })
        #expect(failure.message.contains("system randomness"))
    }

    @Test func aLivelockEndsAtTheStepLimitNamingTheTask() throws {
        let limits = RunLimits(maxSteps: 10_000, maxVirtualNanoseconds: 3_600_000_000_000, strict: true, stuckJobSeconds: 30)
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<1, limits: limits) {
            while true { await Task.yield() }
        })
        #expect(failure.message.contains("step limit"))
    }

    @Test func theScenarioCatchesTheRaceAndPassesTheCarefulDesign() throws {
        #expect(Rehearsal.sweep(TransferRaceScenario(), seeds: 0..<100) == nil)
        let failure = try #require(Rehearsal.expectFailure(TransferRaceScenario(), seeds: 0..<100, variant: "check-then-act", executable: "bank-rehearse"))
        #expect(failure.message.contains("no-overdraft"))
        // One reproduction, two ways: both read the shrunk artifact the sweep wrote.
        let artifact = try #require(failure.artifact)
        #expect(failure.replayCommand == "bank-rehearse replay \(artifact)")
        #expect(failure.replayCall == "Rehearsal.replay(TransferRaceScenario(), artifact: \"\(artifact)\")")
        // The careful design under every schedule of seed 1 with at most one preemption.
        let explored = try #require(Rehearsal.explore(TransferRaceScenario(), preemptionBound: 1))
        #expect(explored.complete && explored.schedules > 1)
    }

    @Test func productionCodeRunsOutsideASimulation() async {
        let shared = Account("shared", balance: 100)
        let bob = Account("bob", balance: 0)
        #expect(await Bank().transfer(30, from: shared, to: bob))
        #expect(await shared.balance == 70)
        #expect(await bob.balance == 30)
    }
}
