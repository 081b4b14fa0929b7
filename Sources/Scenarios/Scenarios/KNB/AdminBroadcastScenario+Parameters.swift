import FirebaseHarness
import Harness
import SimulatedFirebase

extension AdminBroadcastScenario {
    /// The parameter counting this scenario's users.
    public var population: ScenarioParameter? { Parameter.users }

    /// The parameters this scenario reads, as values: `context.parameters[Parameter.users]`.
    enum Parameter {
        static let users = ScenarioParameter(
            "users", "members an announcement goes to (past ~500 devices one FCM call cannot reach them all)",
            default: 40, in: 2...2_000, notable: [501, 800], cost: .linear)
        static let devicesPerUser = ScenarioParameter(
            "devicesPerUser", "push tokens of each member", default: 1, in: 1...3, cost: .linear)
        static let optOutPercent = ScenarioParameter(
            "optOutPercent", "members who turn off announcements and reply likes first", default: 20, in: 0...100)
        static let staleDevicePercent = ScenarioParameter(
            "staleDevicePercent", "devices whose app was uninstalled (FCM answers UNREGISTERED)", default: 10, in: 0...100)
        static let announcements = ScenarioParameter(
            "announcements", "announcements the admin posts, 20 s apart", default: 2, in: 1...5, cost: .linear)
        static let replies = ScenarioParameter(
            "replies", "replies members post to the first announcement", default: 6, in: 0...40, cost: .linear)
        static let replyLikes = ScenarioParameter(
            "replyLikes", "likes members give those replies", default: 20, in: 0...200, cost: .linear)
    }
}
