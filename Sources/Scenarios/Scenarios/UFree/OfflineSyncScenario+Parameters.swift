import FirebaseHarness
import Harness
import SimulatedFirebase

extension OfflineSyncScenario {
    /// The parameters this scenario reads, as values (a misspelt name does not compile).
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    enum Parameter {
        static let users = ScenarioParameter(
            "users", "UFree users, each with two devices (phone and tablet)", default: 2, in: 1...20, cost: .linear)
        static let editsPerDevice = ScenarioParameter(
            "editsPerDevice", "status edits each device makes", default: 8, in: 1...100, cost: .linear)
        static let durationSeconds = ScenarioParameter(
            "durationSeconds", "length of the editing period (virtual seconds)", default: 600, in: 1...86_400, cost: .linear)
        static let offlinePercent = ScenarioParameter(
            "offlinePercent", "chance, before each edit, that the device's connectivity flips (online to offline or back)", default: 30, in: 0...100)
        static let days = ScenarioParameter(
            "days", "days of the week the edits touch (fewer: more conflicts)", default: 3, in: 1...7, cost: .linear)
    }
}
