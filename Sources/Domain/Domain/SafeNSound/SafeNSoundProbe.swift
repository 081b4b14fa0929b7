import SimulatedFirebase

/// Test hooks that open a race window at a chosen point (no-ops in production).
package struct SafeNSoundProbe: Sendable {
    /// Runs between the rate-limit read and the heartbeat write (before the atomic write in the careful design).
    package var betweenRateLimitReadAndWrite: @Sendable (String) async -> Void
    /// Runs in the 30-minute check after it read a user and before it creates that user's alerts.
    package var betweenCheckReadAndCreate: @Sendable (String) async -> Void

    package init(
        betweenRateLimitReadAndWrite: @escaping @Sendable (String) async -> Void = { _ in },
        betweenCheckReadAndCreate: @escaping @Sendable (String) async -> Void = { _ in }
    ) {
        self.betweenRateLimitReadAndWrite = betweenRateLimitReadAndWrite
        self.betweenCheckReadAndCreate = betweenCheckReadAndCreate
    }
}
