import FirebaseHarness
import Harness
import SimulatedFirebase

extension HeartbeatTimelineScenario {
    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`
    /// (a misspelt name does not compile; values are range-checked once, when the run is prepared).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The habits are shares of one population.
    public var constraints: [ParameterConstraint] {
        [.sumAtMost([Parameter.missedPercent, Parameter.latePercent, Parameter.thresholdRacePercent], 100)]
    }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "SafeNSound users", default: 200, in: 1...5_000, cost: .linear)
        static let hours = ScenarioParameter(
            "hours", "virtual hours simulated", default: 72, in: 6...240, notable: [24, 48, 72], cost: .linear)
        static let missedPercent = ScenarioParameter(
            "missedPercent", "users who stop checking in (pre-notification, then email)", default: 25, in: 0...100)
        static let latePercent = ScenarioParameter(
            "latePercent", "users who check in only after the pre-notification", default: 25, in: 0...100)
        static let thresholdRacePercent = ScenarioParameter(
            "thresholdRacePercent", "users who check in within ±3 min of their threshold", default: 10, in: 0...100)
        static let rapidTapPercent = ScenarioParameter(
            "rapidTapPercent", "check-ins sent as a double tap (two requests in one instant)", default: 20, in: 0...100)
        static let offlinePercent = ScenarioParameter(
            "offlinePercent", "check-ins that fail \"No Internet\" (the user taps again 5–30 min later)", default: 5, in: 0...100)
        static let pausePercent = ScenarioParameter(
            "pausePercent", "missed users who pause monitoring (isActive=false) shortly before an alert is due", default: 20, in: 0...100)
        static let emailFailurePercent = ScenarioParameter(
            "emailFailurePercent", "SendGrid 429 probability per email", default: 10, in: 0...90)
        static let tokenChurnPercent = ScenarioParameter(
            "tokenChurnPercent", "users whose FCM token turns invalid mid-run (reinstall, restore); the app registers a new one at its next launch", default: 10, in: 0...100)
        static let reinstallPercent = ScenarioParameter(
            "reinstallPercent", "users who reinstall the app mid-run: a new anonymous uid onboards again with the same email", default: 5, in: 0...100)
        static let emailOutages = ScenarioParameter(
            "emailOutages", "SendGrid outages in the run (every email refused), at random times", default: 3, in: 0...20)
        static let emailOutageMinutes = ScenarioParameter(
            "emailOutageMinutes", "length of each SendGrid outage", default: 40, in: 1...600, notable: [30, 60])
        static let retryMaxMinutes = ScenarioParameter(
            "retryMaxMinutes", "longest wait between retries of a failing alert (exponential backoff from 2 min)", default: 16, in: 2...120)
        static let contactEditPercent = ScenarioParameter(
            "contactEditPercent", "users who stop checking in and replace their first emergency contact 1–45 min before their email is due", default: 20, in: 0...100)
        static let rulesProbePercent = ScenarioParameter(
            "rulesProbePercent", "users whose device, once mid-run, tries the security rules: its own and another user's profile, a forged lastHeartbeat, a heartbeat written directly", default: 10, in: 0...100)
        static let duplicateTickPercent = ScenarioParameter(
            "duplicateTickPercent", "Cloud Scheduler ticks that run twice (overlapping 2-minute runs)", default: 30, in: 0...100)
    }
}
