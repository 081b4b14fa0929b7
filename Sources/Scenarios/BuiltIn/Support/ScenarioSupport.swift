import Domain
import FirebaseHarness
import Harness
import Sim
import SimulatedFirebase

/// Set-up and client behaviour shared by the scenarios of every app: variant selection,
/// arrivals, waits and the client retry policy.
enum ScenarioSupport {
    /// The variant of type `V` the run selected (`careful` when none); the runner validated the name.
    static func variant<V: AppVariant>(_ context: ScenarioContext, _ type: V.Type) -> V {
        variant(named: context.variant, type)
    }

    /// The variant `name` of type `V` (`careful` when nil); the caller validated the name.
    static func variant<V: AppVariant>(named name: String?, _ type: V.Type) -> V {
        do { return try V.named(name) } catch { preconditionFailure("variant validated by the runner: \(error)") }
    }

    /// The names of `variants`, in the given order (what `Scenario.variants` lists).
    static func variants<V: AppVariant>(_ variants: [V]) -> [String] { variants.map(\.rawValue) }

    /// Sorted arrivals of `count` operations spread evenly at random over `durationSeconds`.
    static func arrivals(count: Int, durationSeconds: Int, random: inout SimRandom, origin: UInt64) -> [UInt64] {
        KNBScenarioSupport.arrivals(count: count, durationSeconds: durationSeconds, burstPercent: 0, random: &random, origin: origin)
    }

    /// Sleeps until the virtual instant `nanoseconds` (no-op if it has passed).
    static func sleep(until nanoseconds: UInt64) async { await KNBScenarioSupport.sleep(until: nanoseconds) }

    /// Sleeps `milliseconds` of virtual time.
    static func sleep(milliseconds: Int) async {
        guard milliseconds > 0 else { return }
        try? await SimClock().sleep(for: .milliseconds(milliseconds))
    }

    /// Runs `body` with the client retry policy (`ClientRetry`) on the simulator's clock: transient
    /// errors (UNAVAILABLE, DEADLINE_EXCEEDED, also inside an app's error) are retried.
    static func retrying<T>(attempts: Int = 3, _ body: () async throws -> T) async throws -> T {
        try await ClientRetry.simulated(attempts: attempts, body)
    }
}
