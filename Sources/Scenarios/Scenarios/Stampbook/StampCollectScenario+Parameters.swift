import FirebaseHarness
import Harness
import SimulatedFirebase

extension StampCollectScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "Stampbook users", default: 5, in: 1...40, cost: .linear)
        static let stamps = ScenarioParameter(
            "stamps", "stamps on the map", default: 3, in: 1...20, cost: .linear)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "actions each user takes", default: 8, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "workload length (virtual seconds)", default: 20, in: 1...86_400, cost: .linear)
        static let collectPercent = ScenarioParameter(
            "collectPercent", "share of actions that collect a stamp (the rest like or unlike)", default: 40, in: 0...100)
        static let doubleTapPercent = ScenarioParameter(
            "doubleTapPercent", "chance a collect or like is tapped twice at once", default: 30, in: 0...100)
        static let staleUnlikePercent = ScenarioParameter(
            "staleUnlikePercent", "chance an unlike comes from a stale UI (the user never liked the post)", default: 20, in: 0...100)
    }
}
