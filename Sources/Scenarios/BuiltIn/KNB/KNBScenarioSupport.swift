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

    /// Registers `email` (with a push token) and makes them an admin when asked.
    static func signUp(_ app: KNBApp, email: String, name: String, admin: Bool = false, retry: ClientRetry = .simulated) async -> KNBClient {
        let client = app.client(email: email, name: name)
        _ = try? await retry { try await client.register() }
        _ = try? await retry { try await client.registerToken("tok-\(email)") }
        if admin {
            _ = try? await app.backend.firestore.update(DocumentPath("users", email), ["isAdmin": .set(true)])
        }
        return client
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
