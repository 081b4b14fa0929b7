import Harness
import Sim
import SimulatedFirebase

/// The scenarios' client retry policy: transient network errors (UNAVAILABLE,
/// DEADLINE_EXCEEDED) are retried up to `attempts` times, 1 s then 2 s apart, on whatever clock
/// `sleep` uses (the simulator's in scenarios, the run's `DomainClock` in load mode); anything
/// else is the caller's. A value, so client code shared by a scenario and its load profile takes
/// the policy with its clock.
public struct ClientRetry: Sendable {
    /// Waits between attempts.
    let sleep: @Sendable (Duration) async -> Void

    /// The policy on the running simulation's clock (scenarios).
    public static let simulated = ClientRetry { try? await SimClock().sleep(for: $0) }

    /// The policy on `clock` (load runs, on the real runtime or the simulator).
    public static func on(_ clock: DomainClock) -> ClientRetry { ClientRetry { try? await clock.sleep(for: $0) } }

    /// Runs `body` under the policy. The transient error is found the same way for every app
    /// (`BackendError.inside`: a `BackendError`, or the one an app's error wraps).
    public func callAsFunction<T>(attempts: Int = 3, _ body: () async throws -> T) async throws -> T {
        precondition(attempts >= 1, "a retry policy needs at least one attempt")
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch {
                switch BackendError.inside(error) {
                case .unavailable? where attempt < attempts, .deadlineExceeded? where attempt < attempts:
                    await sleep(.seconds(attempt))
                    attempt += 1
                default: throw error
                }
            }
        }
    }
}
