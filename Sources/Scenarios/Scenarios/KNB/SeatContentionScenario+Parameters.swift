import FirebaseHarness
import Harness
import SimulatedFirebase

extension SeatContentionScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// Seats against users decides whether anyone must lose.
    public var constraints: [ParameterConstraint] {
        [.related(Parameter.seats, Parameter.users)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "users reserving", default: 10, in: 1...100, cost: .linear)
        static let seats = ScenarioParameter(
            "seats", "seats in row A", default: 4, in: 1...100, cost: .linear)
        static let attemptsPerUser = ScenarioParameter(
            "attemptsPerUser", "seats a user tries before giving up", default: 3, in: 1...20, cost: .linear)
        static let windowSeconds = ScenarioParameter(
            "windowSeconds", "users arrive within this window (virtual seconds)", default: 3, in: 1...3_600, cost: .linear)
        static let releasePercent = ScenarioParameter(
            "releasePercent", "users who, holding a seat, release it 1-10 s later (a refused user tries another seat 0.5-3 s after a refusal)", default: 30, in: 0...100)
    }
}
