import FirebaseHarness
import Harness
import SimulatedFirebase

extension StampSocialScenario {
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    enum Parameter {
        static let users = ScenarioParameter(
            "users", "Stampbook users", default: 6, in: 2...40, cost: .linear)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "actions each user takes", default: 12, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "workload length (virtual seconds)", default: 30, in: 1...86_400, cost: .linear)
        static let postPercent = ScenarioParameter(
            "postPercent", "share of actions that create a post", default: 20, in: 0...100)
        static let commentPercent = ScenarioParameter(
            "commentPercent", "share of actions that comment on a post (or delete one of the user's comments)", default: 30, in: 0...100)
        static let deletePostPercent = ScenarioParameter(
            "deletePostPercent", "share of actions that delete one of the user's posts", default: 10, in: 0...100)
        static let followPercent = ScenarioParameter(
            "followPercent", "share of actions that follow or unfollow another user (the rest like or unlike a post)", default: 25, in: 0...100)
        static let doubleTapPercent = ScenarioParameter(
            "doubleTapPercent", "chance a comment, follow or like is tapped twice at once", default: 30, in: 0...100)
    }
}
