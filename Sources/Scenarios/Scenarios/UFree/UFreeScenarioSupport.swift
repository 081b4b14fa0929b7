import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// Set-up shared by the UFree scenarios: the app with the run's variant and signed-up users
/// with time zones.
enum UFreeScenarioSupport {
    /// Time zones users are spread over (the evening of 2026-01-11 in the Americas at virtual zero).
    static let timeZones = ["America/Los_Angeles", "Europe/London", "Asia/Tokyo", "America/New_York"]

    /// One signed-in UFree user.
    struct User: Sendable {
        let uid: String
        let timeZone: String
        let client: UFreeClient
    }

    /// The app on the running simulation (variant from the context).
    static func makeApp(_ context: ScenarioContext, nudgeCooldownSeconds: Int = 60) -> UFreeApp {
        UFreeApp(
            backend: context.backend(), variant: ScenarioSupport.variant(context, UFreeVariant.self),
            nudgeCooldown: .seconds(nudgeCooldownSeconds))
    }

    /// Signs up `count` users u0…; user i lives in `timeZones[i % 4]`.
    static func signUp(_ app: UFreeApp, count: Int, retry: ClientRetry = .simulated) async -> [User] {
        var users: [User] = []
        for index in 0..<count {
            let uid = "u\(index)"
            let zone = timeZones[index % timeZones.count]
            let client = app.client(uid: uid)
            _ = try? await retry { try await client.registerUser(displayName: "User \(index)", timeZoneIdentifier: zone) }
            users.append(User(uid: uid, timeZone: zone, client: client))
        }
        return users
    }

}
