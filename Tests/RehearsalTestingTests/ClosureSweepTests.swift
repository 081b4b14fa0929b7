import Harness
import RehearsalTesting
import Sim
import Testing

@Suite struct ClosureSweepTests {
    @Test func theSweepFindsTheRaceShrinksItAndTheReplayCallReproducesIt() throws {
        var found: RehearsalFailure?
        withKnownIssue("the sweep records the race it finds") {
            found = Rehearsal.sweep(seeds: 0..<50) { try await twoTransfers(safe: false) }
        } matching: { issue in issue.comments.contains { $0.rawValue.contains("alice overdrawn") } }
        let failure = try #require(found)
        #expect(failure.message.contains("alice overdrawn: balance -60"))
        #expect(failure.description.contains("seed \(failure.seed), strategy \(failure.strategy)"))
        #expect(failure.replayCall == "Rehearsal.replay(seed: \(failure.seed), decisions: \(Self.literal(failure.decisions))) { … }")
        #expect(failure.preemptionsAfter <= failure.preemptionsBefore)
        #expect(failure.preemptionsAfter >= 1, "the race needs the scheduler to interleave the two transfers")

        // The printed call reproduces it: same seed, shrunk decisions.
        var replayed: SimulationResult<Void>?
        withKnownIssue("the replay reproduces the failure") {
            replayed = Rehearsal.replay(seed: failure.seed, decisions: failure.decisions) { try await twoTransfers(safe: false) }
        }
        let result = try #require(replayed)
        #expect(result.outcome.description.contains("alice overdrawn: balance -60"))
        #expect(result.replayDivergence == nil)
    }

    /// `expectFailure(replaying:)` returns a replay that still fails without recording it, and
    /// records an issue when the replay passes (the bug was fixed) or fails another way.
    @Test func anExpectedReplayRecordsOnlyWhatIsWrongWithIt() throws {
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<50) { try await twoTransfers(safe: false) })
        let replayed = try #require(Rehearsal.expectFailure(replaying: failure, matching: { $0.contains("overdrawn") }) { try await twoTransfers(safe: false) })
        #expect(!replayed.outcome.isSuccess)
        withKnownIssue("the fixed body passes its replay") {
            Rehearsal.expectFailure(replaying: failure) { try await twoTransfers(safe: true) }
        } matching: { issue in issue.comments.contains { $0.rawValue.contains("to fail, but it passed") || $0.rawValue.contains("does not fit") } }
        withKnownIssue("another failure than the one expected") {
            Rehearsal.expectFailure(replaying: failure, matching: { $0.contains("deadlock") }) { try await twoTransfers(safe: false) }
        } matching: { issue in issue.comments.contains { $0.rawValue.contains("the replay found another") } }
    }

    /// The reported schedule has the fewest preemptions any failing schedule of its seed has: the
    /// same count `explore` finds at that seed, and the failure says it was proven minimal.
    @Test func theReportedScheduleHasTheFewestPreemptionsExploreFinds() throws {
        // A shrink of one run leaves the schedule as found: the search alone brings it down.
        for (strategy, shrinkRuns) in [(SchedulingStrategy.random, 300), (.pct(depth: 3, horizon: nil), 300), (.random, 1)] {
            let options = SweepOptions(strategies: [strategy], maxShrinkRuns: shrinkRuns)
            let failure = try #require(Rehearsal.expectFailure(seeds: 0..<50, options: options) {
                try await twoTransfers(safe: false)
            })
            var exploration: RehearsalExploration?
            withKnownIssue("explore records the failure it finds") {
                exploration = Rehearsal.explore(preemptionBound: 4, seed: failure.seed) { try await twoTransfers(safe: false) }
            }
            let minimum = try #require(exploration?.failure).preemptionsAfter
            #expect(failure.preemptionsAfter == minimum, "\(strategy): reported \(failure.preemptionsAfter), explore's minimum \(minimum)")
            guard case .minimal = failure.scheduleSearch else {
                Issue.record("\(strategy): not proven minimal: \(String(describing: failure.scheduleSearch))")
                continue
            }
            #expect(failure.description.contains("schedule: minimal"))
        }
    }

    /// Without a budget the shrinker's schedule is reported as not proven minimal.
    @Test func withoutABudgetTheScheduleIsNotProvenMinimal() throws {
        let failure = try #require(Rehearsal.expectFailure(seeds: 0..<50, options: SweepOptions(strategies: [.random], minimalScheduleBudget: 0)) {
            try await twoTransfers(safe: false)
        })
        if failure.preemptionsAfter > 0 {
            #expect(failure.scheduleSearch == .budgetSpent(explored: 0, completeBound: -1))
            #expect(failure.description.contains("not proven minimal"))
        } else {
            #expect(failure.scheduleSearch == .minimal(explored: 0, completeBound: -1))
        }
    }

    @Test func sweepsAreDeterministic() {
        var failures: [RehearsalFailure?] = []
        for _ in 0..<2 {
            withKnownIssue {
                failures.append(Rehearsal.sweep(seeds: 0..<50, options: SweepOptions(strategies: [.pct(depth: 2, horizon: nil), .random])) {
                    try await twoTransfers(safe: false)
                })
            }
        }
        #expect(failures.count == 2 && failures[0] != nil && failures[0] == failures[1])
    }

    @Test func theFixedTransferPassesEverySeedAndStrategy() {
        let failure = Rehearsal.sweep(seeds: 0..<100) { try await twoTransfers(safe: true) }
        #expect(failure == nil)
    }

    @Test func aDeadlockIsAFailureToo() {
        var failure: RehearsalFailure?
        withKnownIssue {
            failure = Rehearsal.sweep(seeds: 0..<5, options: .randomOnly) {
                await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
            }
        }
        #expect(failure?.message.hasPrefix("deadlock") == true)
    }

    @Test func aRehearsableActorWorksOutsideASimulation() async {
        let account = Account("production", balance: 10)
        #expect(account.executor is QueueExecutor)
        await account.deposit(5)
        #expect(await account.balance == 15)
    }

    static func literal(_ decisions: [UInt32]) -> String { "[" + decisions.map(String.init).joined(separator: ", ") + "]" }
}
