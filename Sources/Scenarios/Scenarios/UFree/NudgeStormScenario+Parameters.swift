import FirebaseHarness
import Harness
import SimulatedFirebase

extension NudgeStormScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "UFree users, all friends with each other", default: 5, in: 2...20, cost: .linear)
        static let actionsPerUser = ScenarioParameter(
            "actionsPerUser", "nudge actions each user takes", default: 4, in: 1...50, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "storm length (virtual seconds, below the 60 s cooldown)", default: 30, in: 1...86_400, notable: [60], cost: .linear)
        static let tapsMax = ScenarioParameter(
            "tapsMax", "most taps in one rapid-tap burst", default: 4, in: 1...10, cost: .linear)
        static let tapGapMaxMilliseconds = ScenarioParameter(
            "tapGapMaxMilliseconds", "largest gap between two taps of a burst", default: 400, in: 0...10_000)
        static let nudgeAllPercent = ScenarioParameter(
            "nudgeAllPercent", "share of actions that are Nudge All", default: 30, in: 0...100)
        static let freePercent = ScenarioParameter(
            "freePercent", "chance a user is free on the plan day", default: 50, in: 0...100)
        static let inboxPercent = ScenarioParameter(
            "inboxPercent", "users with the notification inbox open on a phone and a tablet (a real-time listener each), tapping notifications read", default: 60, in: 0...100)
        static let markAllPercent = ScenarioParameter(
            "markAllPercent", "share of inbox glances that tap \"Mark all read\" instead of one notification", default: 20, in: 0...100)
    }
}
