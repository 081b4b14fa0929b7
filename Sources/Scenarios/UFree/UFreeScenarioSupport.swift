import Domain
import Sim

/// Set-up shared by the UFree scenarios: the app with the run's variant, signed-up users with
/// time zones, and the client retry policy for UFree calls.
enum UFreeScenarioSupport {
    /// Time zones users are spread over (the evening of 2026-01-11 in the Americas at virtual zero).
    static let timeZones = ["America/Los_Angeles", "Europe/London", "Asia/Tokyo", "America/New_York"]

    /// One signed-in UFree user.
    struct User: Sendable {
        let uid: String
        let timeZone: String
        let client: FirestoreClient
    }

    /// The app on the running simulation (variant from the context).
    static func makeApp(_ context: ScenarioContext, nudgeCooldownSeconds: Int = 60) -> UFreeApp {
        UFreeApp(
            backend: context.backend(), variant: ScenarioSupport.variant(context, UFreeVariant.self) ?? .careful,
            nudgeCooldown: .seconds(nudgeCooldownSeconds))
    }

    /// Signs up `count` users u0…; user i lives in `timeZones[i % 4]`.
    static func signUp(_ app: UFreeApp, count: Int, retry: ClientRetry = .simulated) async -> [User] {
        var users: [User] = []
        for index in 0..<count {
            let uid = "u\(index)"
            let zone = timeZones[index % timeZones.count]
            let client = app.backend.client(auth: AuthContext(uid: uid), label: uid)
            _ = try? await retry(unwrap: backendError) { try await app.registerUser(displayName: "User \(index)", timeZoneIdentifier: zone, as: client) }
            users.append(User(uid: uid, timeZone: zone, client: client))
        }
        return users
    }

    /// UFree calls retried on transient backend errors (3 attempts, 1 s then 2 s).
    static func retrying<T>(_ body: () async throws -> T) async throws -> T {
        try await ScenarioSupport.retrying(unwrap: backendError, body)
    }

    /// The backend error inside a UFree error (what the retry policy looks at).
    static func backendError(_ error: any Error) -> BackendError? {
        if case UFreeError.backend(let backend) = error { return backend }
        return error as? BackendError
    }
}
