import FirebaseHarness
import Harness
import SimulatedFirebase

extension FriendHandshakeScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "UFree users", default: 6, in: 2...40, cost: .linear)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "actions each user takes", default: 6, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "workload length (virtual seconds)", default: 20, in: 1...86_400, cost: .linear)
        static let crossPercent = ScenarioParameter(
            "crossPercent", "chance an action is a crossing request (both users tap Add at once)", default: 40, in: 0...100)
        static let removePercent = ScenarioParameter(
            "removePercent", "chance a user removes a friend they picked", default: 25, in: 0...100)
    }
}
