import Domain
import Sim

/// Set-up and client behaviour shared by the UFree, Stampbook and Inspired scenarios:
/// variant selection, arrivals, waits and two-tap helpers.
enum ScenarioSupport {
    /// The variant of type `V` the run selected (nil: careful); the runner validated the name.
    static func variant<V: RawRepresentable>(_ context: ScenarioContext, _ type: V.Type) -> V? where V.RawValue == String {
        guard let name = context.variant else { return nil }
        guard let variant = V(rawValue: name) else { preconditionFailure("variant \(name) validated by the runner") }
        return variant
    }

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

    /// Runs `body` with the client retry policy for transient errors (UNAVAILABLE,
    /// DEADLINE_EXCEEDED, also when wrapped in an app error by `unwrap`).
    static func retrying<T>(
        attempts: Int = 3, unwrap: (any Error) -> BackendError?, _ body: () async throws -> T
    ) async throws -> T {
        try await ClientRetry.simulated(attempts: attempts, unwrap: unwrap, body)
    }
}
