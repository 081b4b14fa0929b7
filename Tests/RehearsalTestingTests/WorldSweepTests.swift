import Harness
import RehearsalTesting
import Sim
import Testing

/// A cart that holds at most 50 lines and drops the rest without a word: a bug of the world
/// (an order of more than 50 items), not of the schedule.
struct BulkOrderScenario: Scenario {
    let name = "bulk-order"
    let summary = "one order of `items` lines into a cart"
    static let items = ScenarioParameter("items", "lines in the order", default: 3, in: 1...100)
    static let allLinesKept = CheckDeclaration(.always, "all-lines-kept", "the cart holds every line ordered")
    let parameters = [items]
    let operations = ["order"]
    let variants: [String] = []
    let checks = [allLinesKept]
    let usesBackend = false

    actor Cart: RehearsableActor {
        nonisolated let executor = RehearsableExecutor.make("cart")
        var lines = 0
        func add() { if lines < 50 { lines += 1 } }
    }

    func run(_ context: ScenarioContext) async throws {
        let cart = Cart()
        let ordered = context.parameters[Self.items]
        for _ in 0..<ordered { await cart.add() }
        let kept = await cart.lines
        context.always(Self.allLinesKept, kept == ordered, "the cart kept \(kept) of \(ordered) lines")
        try context.throwIfStopped()
    }
}

@Suite struct WorldSweepTests {
    /// The default world (3 items) never shows the bug; a scenario sweep draws each seed's world
    /// as `rehearse fuzz` does, finds it, shrinks the drawn size to what it needs and prints a
    /// replay call that reproduces it.
    @Test func aScenarioSweepDrawsWorldsAndFindsABugOfTheWorld() throws {
        #expect(Rehearsal.sweep(BulkOrderScenario(), seeds: 0..<200, world: .default, options: .randomOnly) == nil)
        var found: RehearsalFailure?
        withKnownIssue {
            found = Rehearsal.sweep(BulkOrderScenario(), seeds: 0..<200, options: .randomOnly)
        } matching: { issue in issue.comments.contains { $0.rawValue.contains("all-lines-kept") } }
        let failure = try #require(found)
        let items = try #require(failure.replayCall.firstMatch(of: /"items": (\d+)/).map { Int($0.1)! })
        #expect(items == 51, "shrunk to \(items) items: \(failure.replayCall)")
        var replayed: RunReport?
        withKnownIssue {
            replayed = Rehearsal.replay(BulkOrderScenario(), seed: failure.seed, strategy: failure.strategy, parameters: ["items": items], decisions: failure.decisions)
        }
        #expect(try #require(replayed).violation?.check == "all-lines-kept")
    }
}
