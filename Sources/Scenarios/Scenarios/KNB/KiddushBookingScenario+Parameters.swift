import FirebaseHarness
import Harness
import SimulatedFirebase

extension KiddushBookingScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// Admins are some of the users; dates against users decides how contended a date is.
    public var constraints: [ParameterConstraint] {
        [.atMost(Parameter.admins, Parameter.users), .related(Parameter.dates, Parameter.users)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "users booking", default: 6, in: 1...60, cost: .linear)
        static let admins = ScenarioParameter(
            "admins", "how many of them are admins", default: 2, in: 0...60)
        static let dates = ScenarioParameter(
            "dates", "Shabbat dates on offer", default: 3, in: 1...52, cost: .linear)
        static let windowSeconds = ScenarioParameter(
            "windowSeconds", "bookings arrive within this window (virtual seconds)", default: 5, in: 1...3_600, cost: .linear)
        static let duplicatePercent = ScenarioParameter(
            "duplicatePercent", "trigger events delivered twice", default: 20, in: 0...100)
        static let cancelPercent = ScenarioParameter(
            "cancelPercent", "chance a user told 'booked' cancels 0–1.5 s later", default: 30, in: 0...100)
        static let rebookPercent = ScenarioParameter(
            "rebookPercent", "chance a user told 'already booked' tries the same date again 0.2–2 s later (once)", default: 50, in: 0...100)
    }
}
