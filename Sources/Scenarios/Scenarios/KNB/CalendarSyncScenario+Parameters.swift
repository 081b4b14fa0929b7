import FirebaseHarness
import Harness
import SimulatedFirebase

extension CalendarSyncScenario {
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The parameters this scenario reads, as values (a misspelt name does not compile).
    /// Dates against members decides how contended a date is.
    public var constraints: [ParameterConstraint] {
        [.related(Parameter.dates, Parameter.users)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "members who book a kiddush through the app (one date each)", default: 6, in: 1...60, cost: .linear)
        static let dates = ScenarioParameter(
            "dates", "Shabbat dates in the website's calendar table (weekly from 2026-02-07)", default: 8, in: 1...52, cost: .linear)
        static let hours = ScenarioParameter(
            "hours", "virtual hours of syncs; the last two are quiet (no edits, bookings or cancellations)", default: 4, in: 3...72, cost: .linear)
        static let websiteEdits = ScenarioParameter(
            "websiteEdits", "office edits of the homepage (a calendar row or an occasion each)", default: 8, in: 0...500, cost: .linear)
        static let occasionSlots = ScenarioParameter(
            "occasionSlots", "places for community occasions on the page (each listed or not)", default: 6, in: 0...60, cost: .linear)
        static let cancelPercent = ScenarioParameter(
            "cancelPercent", "chance a member told 'booked' cancels at a later sync tick", default: 50, in: 0...100)
        static let burstSeconds = ScenarioParameter(
            "burstSeconds", "members act within this many seconds after a sync tick (the race window)", default: 15, in: 1...1_800, cost: .linear)
        static let slowFetchPercent = ScenarioParameter(
            "slowFetchPercent", "website fetches that take 3–6 minutes (past the run's deadline: overlapping runs)", default: 5, in: 0...100)
        static let fetchFailPercent = ScenarioParameter(
            "fetchFailPercent", "website fetch attempts answered with HTTP 503 (a run tries three times)", default: 5, in: 0...30)
        static let duplicatePercent = ScenarioParameter(
            "duplicatePercent", "trigger events delivered twice", default: 20, in: 0...100)
    }
}
