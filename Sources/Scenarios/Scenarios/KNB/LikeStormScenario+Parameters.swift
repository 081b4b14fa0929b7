import FirebaseHarness
import Harness
import SimulatedFirebase

extension LikeStormScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// Deleted posts are some of the posts.
    public var constraints: [ParameterConstraint] {
        [.atMost(Parameter.postDeletes, Parameter.posts)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "users acting on the feed", default: 8, in: 1...60, cost: .linear)
        static let posts = ScenarioParameter(
            "posts", "top-level posts", default: 2, in: 1...20, cost: .linear)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "actions each user takes", default: 8, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "storm length (virtual seconds)", default: 30, in: 1...86_400, cost: .linear)
        static let doubleTapPercent = ScenarioParameter(
            "doubleTapPercent", "chance a like is sent twice", default: 25, in: 0...100)
        static let staleUnlikePercent = ScenarioParameter(
            "staleUnlikePercent", "chance an unlike comes from a stale UI (user does not like the post)", default: 20, in: 0...100)
        static let replyPercent = ScenarioParameter(
            "replyPercent", "share of actions that are replies", default: 25, in: 0...100)
        static let duplicatePercent = ScenarioParameter(
            "duplicatePercent", "trigger events delivered twice", default: 10, in: 0...100)
        static let postDeletes = ScenarioParameter(
            "postDeletes", "posts their author deletes during the storm (the first ones; at most posts)", default: 1, in: 0...20)
        static let reorderPercent = ScenarioParameter(
            "reorderPercent", "chance a trigger event overtakes the previous one of its post (writes < 1 s apart)", default: 15, in: 0...100)
    }
}
