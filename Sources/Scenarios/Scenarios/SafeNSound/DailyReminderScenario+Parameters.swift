import FirebaseHarness
import Harness
import SimulatedFirebase

extension DailyReminderScenario {
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// A catch-up no longer than the period could miss a reminder between two runs.
    public var constraints: [ParameterConstraint] {
        [.greaterThan(Parameter.catchUpMinutes, Parameter.intervalMinutes)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "SafeNSound users (even-numbered ones live in the zone whose clocks change)", default: 12, in: 1...200, cost: .linear)
        static let days = ScenarioParameter(
            "days", "virtual days simulated, starting 36 h before the DST change", default: 3, in: 2...28, cost: .linear)
        static let transition = ScenarioParameter(
            "transition", "which 2026 DST change the window spans: 0 drawn per seed; 1-3 spring forward (Los Angeles 8 Mar, London 29 Mar, Sydney 4 Oct), 4-6 fall back (Sydney 5 Apr, London 25 Oct, Los Angeles 1 Nov)",
            default: 0, in: 0...6)
        static let intervalMinutes = ScenarioParameter(
            "intervalMinutes", "period of the sendDailyReminders scheduled function", default: 5, in: 1...30, notable: [15])
        static let catchUpMinutes = ScenarioParameter(
            "catchUpMinutes", "how late after its local time a reminder may still go out", default: 15, in: 2...60)
        static let enabledPercent = ScenarioParameter(
            "enabledPercent", "users who start with the daily reminder on", default: 80, in: 0...100)
        static let dstEdgePercent = ScenarioParameter(
            "dstEdgePercent", "users of the changing zone whose reminder time lies in the hour the change skips or repeats", default: 50, in: 0...100)
        static let togglePercent = ScenarioParameter(
            "togglePercent", "users who turn the reminder off mid-run (and back on 2-36 h later)", default: 30, in: 0...100)
        static let timeChangePercent = ScenarioParameter(
            "timeChangePercent", "users who change their reminder time mid-run", default: 30, in: 0...100)
        static let checkInPercent = ScenarioParameter(
            "checkInPercent", "chance a user checks in on a given day (at a random hour)", default: 50, in: 0...100)
        static let skipIfCheckedIn = ScenarioParameter(
            "skipIfCheckedIn", "1: a check-in earlier the same local day skips that day's reminder; 0: the reminder always goes", default: 1, in: 0...1)
    }
}
