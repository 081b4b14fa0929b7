import Domain

/// The scenarios' client retry policy: transient network errors (UNAVAILABLE,
/// DEADLINE_EXCEEDED) are retried up to `attempts` times, 1 s then 2 s apart, on whatever clock
/// `sleep` uses (the simulator's in scenarios, the wall clock in load mode); anything else is the
/// caller's.
enum ClientRetry {
    static func retrying<T>(
        attempts: Int, sleep: (Duration) async -> Void, _ body: () async throws -> T
    ) async throws -> T {
        precondition(attempts >= 1, "a retry policy needs at least one attempt")
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as BackendError {
                switch error {
                case .unavailable where attempt < attempts, .deadlineExceeded where attempt < attempts:
                    await sleep(.seconds(attempt))
                    attempt += 1
                default: throw error
                }
            }
        }
    }
}
