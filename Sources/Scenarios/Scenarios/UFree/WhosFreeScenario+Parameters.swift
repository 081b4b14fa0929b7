import FirebaseHarness
import Harness
import SimulatedFirebase

extension WhosFreeScenario {
    /// The parameter counting this scenario's users (the friends whose days are counted).
    public var population: ScenarioParameter? { Parameter.friends }

    /// The parameters this scenario reads, as values (a misspelt name does not compile).
    enum Parameter {
        static let friends = ScenarioParameter(
            "friends", "friends whose days each viewer's badge counts", default: 3, in: 1...50, cost: .linear)
        static let viewers = ScenarioParameter(
            "viewers", "users watching the badge, each friends with every friend, on one phone", default: 2, in: 1...10, cost: .linear)
        static let days = ScenarioParameter(
            "days", "days the badge counts (from 2026-01-14)", default: 7, in: 1...14, cost: .linear)
        static let rounds = ScenarioParameter(
            "rounds", "rounds of edits followed by every viewer's pull to refresh", default: 6, in: 1...30, cost: .linear)
        static let editsPerRound = ScenarioParameter(
            "editsPerRound", "status edits the friends make in each round, before the refreshes", default: 4, in: 0...200, cost: .linear)
    }
}
