/// A load run's clock: the real runtime's or the simulator's, as the world's backend keeps time.
/// The driver reads elapsed time and sleeps on it; nothing else.
package struct RunClock: Sendable {
    /// Nanoseconds since the clock's zero.
    package let elapsedNanoseconds: @Sendable () -> Int64
    /// Sleeps `duration` on this clock.
    let sleeper: nonisolated(nonsending) @Sendable (Duration) async throws -> Void

    /// A clock reading `elapsedNanoseconds` and sleeping with `sleep`.
    package init(
        elapsedNanoseconds: @escaping @Sendable () -> Int64, sleep: nonisolated(nonsending) @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.elapsedNanoseconds = elapsedNanoseconds
        self.sleeper = sleep
    }

    /// Sleeps `duration` on this clock.
    nonisolated(nonsending) public func sleep(for duration: Duration) async throws { try await sleeper(duration) }
}
