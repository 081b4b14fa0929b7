import FirebaseHarness
import Harness
import SimulatedFirebase

extension PrivacyRevocationScenario {
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// Some read is refused: not every profile stays public.
    public var constraints: [ParameterConstraint] {
        [ParameterConstraint("publicPercent < 100 or changePercent > 0", reading: [Parameter.publicPercent, Parameter.changePercent]) {
            $0[Parameter.publicPercent] < 100 || $0[Parameter.changePercent] > 0
        }]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "Inspired users", default: 8, in: 2...40, cost: .linear)
        static let communities = ScenarioParameter(
            "communities", "communities (each user starts in one or two)", default: 3, in: 2...20, cost: .linear)
        static let publicPercent = ScenarioParameter(
            "publicPercent", "chance a user starts with a public profile", default: 40, in: 0...100)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "actions each user takes", default: 12, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "workload length (virtual seconds)", default: 30, in: 1...86_400, cost: .linear)
        static let readPercent = ScenarioParameter(
            "readPercent", "share of actions that read another user's profile", default: 60, in: 1...100)
        static let changePercent = ScenarioParameter(
            "changePercent", "share of actions that change access: make the profile public or private, or leave or join a community (the rest post)",
            default: 25, in: 1...100)
        static let quickFlipPercent = ScenarioParameter(
            "quickFlipPercent", "chance a privacy change is flipped back at once (a double tap on the switch)", default: 30, in: 0...100)
    }
}
