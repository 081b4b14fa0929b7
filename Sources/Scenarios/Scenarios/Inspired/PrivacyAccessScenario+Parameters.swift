import FirebaseHarness
import Harness
import SimulatedFirebase

extension PrivacyAccessScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// Some read is unauthorised: profiles are read, not all public, in more than one community.
    public var constraints: [ParameterConstraint] {
        [.not(Parameter.readPercent, 0), .not(Parameter.publicPercent, 100), .not(Parameter.communities, 1)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "Inspired users (every other one named \"Sam Lee\")", default: 6, in: 2...40, cost: .linear)
        static let communities = ScenarioParameter(
            "communities", "communities users join (one each)", default: 3, in: 1...20, cost: .linear)
        static let publicPercent = ScenarioParameter(
            "publicPercent", "chance a user makes their profile public", default: 30, in: 0...100)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "actions each user takes", default: 8, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "workload length (virtual seconds)", default: 20, in: 1...86_400, cost: .linear)
        static let readPercent = ScenarioParameter(
            "readPercent", "share of actions that try to read another profile", default: 50, in: 0...100)
        static let doubleTapPercent = ScenarioParameter(
            "doubleTapPercent", "chance a like is tapped twice at once", default: 30, in: 0...100)
        static let triggerQueryMilliseconds = ScenarioParameter(
            "triggerQueryMilliseconds", "most admin-SDK latency of the username trigger's check and of its write", default: 200, in: 0...10_000)
    }
}
