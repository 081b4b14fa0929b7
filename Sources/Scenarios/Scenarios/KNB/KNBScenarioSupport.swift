import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// Set-up and client behaviour shared by the KNB scenarios: the app on the simulator with the
/// run's variant, signed-up users, and the retry policy of a real client.
enum KNBScenarioSupport {
    /// The KNB app on the running simulation, with `duplicatePercent` % duplicate trigger events
    /// and, when given, `reorderPercent` % reordered ones (else the documented default).
    /// `propagatesNames` deploys `onUserUpdate`.
    static func makeApp(_ context: ScenarioContext, duplicatePercent: Int, reorderPercent: Int? = nil, propagatesNames: Bool = false) -> KNBApp {
        var faults = Self.faults(duplicatePercent: duplicatePercent)
        if let reorderPercent { faults.triggerReorderProbability = Double(reorderPercent) / 100 }
        return KNBApp(backend: context.backend(faults), variant: ScenarioSupport.variant(context, KNBVariant.self), propagatesNames: propagatesNames)
    }

    /// The backend faults of the KNB scenarios: the documented defaults with `duplicatePercent` %
    /// duplicate trigger events.
    static func faults(duplicatePercent: Int) -> BackendFaults {
        var faults = BackendFaults.default
        faults.triggerDuplicateProbability = Double(duplicatePercent) / 100
        return faults
    }

    /// The KNB app of a load run, on the runner's backend with the run's variant.
    static func makeApp(_ setup: LoadProfile.Setup) -> KNBApp {
        KNBApp(backend: setup.backend, variant: ScenarioSupport.variant(named: setup.variant, KNBVariant.self))
    }

    /// Registers `email` (with a push token) and makes them an admin when asked, each call made
    /// `persistently`, as an app that keeps trying until it gets through.
    static func signUp(_ app: KNBApp, email: String, name: String, admin: Bool = false) async -> KNBClient {
        await account(app, email: email, name: name, admin: admin).client
    }

    /// `signUp` of a load run: each call under `retry` once, on the run's clock.
    static func signUp(_ app: KNBApp, email: String, name: String, admin: Bool = false, retry: ClientRetry) async -> KNBClient {
        await signUp(app, email: email, name: name, admin: admin) { call in try await retry { try await call() } }.client
    }

    /// `signUp`, and whether the device was told its account exists (the sign-in got through).
    static func account(_ app: KNBApp, email: String, name: String, admin: Bool = false) async -> (client: KNBClient, registered: Bool) {
        await signUp(app, email: email, name: name, admin: admin) { call in try await persistently(call) }
    }

    private static func signUp(
        _ app: KNBApp, email: String, name: String, admin: Bool, calling attempt: (() async throws -> Void) async throws -> Void
    ) async -> (client: KNBClient, registered: Bool) {
        let client = app.client(email: email, name: name)
        let registered = (try? await attempt { try await client.register() }) != nil
        _ = try? await attempt { try await client.registerToken(token(email)) }
        if admin {
            _ = try? await app.backend.firestore.update(DocumentPath("users", email), ["isAdmin": .set(true)])
        }
        return (client, registered)
    }

    /// The push token of `email`'s `device`-th device. FCM tokens have no dots, and the app writes
    /// them as field paths (`fcmTokens.<token>`), so the email's dots are replaced.
    static func token(_ email: String, device: Int = 0) -> String {
        "tok-" + email.replacingOccurrences(of: ".", with: "_") + (device == 0 ? "" : "-\(device)")
    }

    /// How long a set-up call keeps trying (virtual time from its first attempt).
    static let setUpPatience: Duration = .seconds(3_600)

    /// A set-up call (sign-in, a post or honor to act on) as an app makes it until it gets
    /// through: the client retry policy (`attempts`), then, while the backend stays unreachable
    /// (UNAVAILABLE, DEADLINE_EXCEEDED, or a transaction ABORTED once its attempts are used up,
    /// as during an outage), again after 5 s, 10 s, 20 s, … (at most a minute apart) for up to
    /// `setUpPatience`; then the last error. Anything else (a refusal) is thrown at once.
    static func persistently<T>(attempts: Int = 3, _ body: () async throws -> T) async throws -> T {
        let giveUp = Simulation.nowNanoseconds + UInt64(setUpPatience.components.seconds) * 1_000_000_000
        var wait: Duration = .seconds(5)
        while true {
            do {
                return try await ScenarioSupport.retrying(attempts: attempts, body)
            } catch {
                let waitNanoseconds = UInt64(wait.components.seconds) * 1_000_000_000
                switch BackendError.inside(error) {
                case .unavailable?, .deadlineExceeded?, .aborted?:
                    guard Simulation.nowNanoseconds + waitNanoseconds <= giveUp else { throw error }
                default: throw error
                }
                try? await SimClock().sleep(for: wait)
                wait = min(wait * 2, .seconds(60))
            }
        }
    }

    /// Sorted arrival times (virtual ns from `origin`) of `count` operations over `duration`
    /// seconds, `burstPercent` % of them in the last tenth (a burst near the close).
    static func arrivals(count: Int, durationSeconds: Int, burstPercent: Int, random: inout SimRandom, origin: UInt64) -> [UInt64] {
        let total = UInt64(durationSeconds) * 1_000_000_000
        let burstStart = total / 10 * 9
        return (0..<count).map { _ in
            if random.below(100) < burstPercent { return origin + burstStart + UInt64(random.below(Int(total - burstStart))) }
            return origin + UInt64(random.below(Int(burstStart)))
        }.sorted()
    }

    /// Sleeps until the virtual instant `nanoseconds` (no-op if it has passed).
    static func sleep(until nanoseconds: UInt64) async {
        let now = Simulation.nowNanoseconds
        guard nanoseconds > now else { return }
        try? await SimClock().sleep(for: .nanoseconds(Int64(nanoseconds - now)))
    }
}
