/// The injected time source of the domain core: a monotonic clock plus the calendar instant of its zero.
///
/// Domain code never reads the wall clock. It asks this value for `now` (nanoseconds since the
/// Unix epoch, in the clock's own time line) and sleeps through it, so the same code runs on a
/// simulator's virtual clock, on swift-clocks' `TestClock` or on `ContinuousClock` at full speed.
public struct DomainClock: Sendable {
    /// Calendar time at the clock's zero, in nanoseconds since 1970-01-01T00:00:00Z.
    public let epochUnixNanoseconds: Int64
    private let elapsed: @Sendable () -> Duration
    private let sleeper: nonisolated(nonsending) @Sendable (Duration) async throws -> Void

    /// Wraps any standard `Clock` measured in `Duration`; `epochUnixNanoseconds` is the calendar
    /// time that the clock's current instant (at the moment of wrapping) stands for.
    public init<C: Clock>(_ clock: C, epochUnixNanoseconds: Int64) where C.Duration == Duration {
        let start = clock.now
        self.epochUnixNanoseconds = epochUnixNanoseconds
        self.elapsed = { start.duration(to: clock.now) }
        self.sleeper = { duration in
            if duration > .zero { try await clock.sleep(for: duration) }
        }
    }

    /// A clock given as its two operations: the time elapsed since its zero, and a sleep (nothing
    /// for a duration of zero or less). The simulator's `SimulatedEnvironment` builds one from
    /// `SimClock`'s direct sleep, without `Clock`'s generic layers.
    public init(epochUnixNanoseconds: Int64, elapsed: @escaping @Sendable () -> Duration, sleep: nonisolated(nonsending) @escaping @Sendable (Duration) async throws -> Void) {
        self.epochUnixNanoseconds = epochUnixNanoseconds
        self.elapsed = elapsed
        self.sleeper = sleep
    }

    /// Nanoseconds since the clock was wrapped.
    public var elapsedNanoseconds: Int64 { elapsed().nanoseconds }

    /// Calendar time now, in nanoseconds since the Unix epoch.
    public var nowUnixNanoseconds: Int64 { epochUnixNanoseconds + elapsed().nanoseconds }

    /// Calendar time now, as a `Timestamp`.
    public var now: Timestamp { Timestamp(unixNanoseconds: nowUnixNanoseconds) }

    /// Suspends the caller for `duration` of this clock's time.
    nonisolated(nonsending) public func sleep(for duration: Duration) async throws { try await sleeper(duration) }

    /// Suspends the caller until calendar time `deadline` (returns at once if it has passed).
    nonisolated(nonsending) public func sleep(until deadline: Timestamp) async throws {
        let remaining = deadline.unixNanoseconds - nowUnixNanoseconds
        if remaining > 0 { try await sleeper(.nanoseconds(remaining)) }
    }
}

extension Duration {
    /// The duration in whole nanoseconds (truncating sub-nanosecond parts; past 292 years the
    /// count wraps: durations here are far shorter). From zero to 18.4 s a duration is its low 64
    /// bits of attoseconds alone: one 64-bit division instead of `components`' 128-bit arithmetic.
    public var nanoseconds: Int64 {
        if _high == 0 { return Int64(_low / 1_000_000_000) }
        return Int64(truncatingIfNeeded: attoseconds / 1_000_000_000)
    }
}
