/// The simulation's virtual clock: instants are virtual nanoseconds since the run started, and
/// `sleep` registers a timer, so 72 virtual hours of sleeping cost no wall time.
///
/// ```swift
/// let clock = SimClock()
/// try await clock.sleep(for: .seconds(30 * 60))   // returns at once in wall time
/// let date = clock.unixNanoseconds(at: clock.now)  // calendar time for formatting
/// ```
public struct SimClock: Clock, Sendable {
    /// A point in virtual time.
    public struct Instant: InstantProtocol, Sendable, Hashable, Codable {
        /// Virtual nanoseconds since the start of the run.
        public var nanoseconds: UInt64

        /// The instant `nanoseconds` after the start of the run.
        public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

        /// This instant moved by `duration` (negative moves back).
        public func advanced(by duration: Duration) -> Instant {
            let delta = duration.simNanoseconds
            return Instant(nanoseconds: delta >= 0 ? nanoseconds &+ UInt64(delta) : nanoseconds &- UInt64(-delta))
        }

        /// Virtual time from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            .nanoseconds(Int64(bitPattern: other.nanoseconds &- nanoseconds))
        }

        /// Earlier instants order first.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    }

    /// The clock of the simulation running on this thread.
    public init() {}

    /// The current virtual instant.
    public var now: Instant { Instant(nanoseconds: Self.scheduler().now) }

    /// One virtual nanosecond.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Calendar time at virtual zero, in nanoseconds since the Unix epoch.
    public var epochUnixNanoseconds: Int64 { Self.scheduler().configuration.epochUnixNanoseconds }

    /// Calendar time of `instant`, in nanoseconds since the Unix epoch.
    public func unixNanoseconds(at instant: Instant) -> Int64 { epochUnixNanoseconds + Int64(instant.nanoseconds) }

    /// Suspends until `deadline` as a virtual timer (a past deadline yields once); throws on cancellation.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await Self.sleep(untilNanoseconds: deadline.nanoseconds)
    }

    /// What `DomainClock(SimClock(), …)` does for a sleep of `duration`: nothing for zero or less,
    /// else `sleep(for: duration)` — the same timer (a yield under a nanosecond, a wrapped deadline
    /// past 292 years, as `Instant.advanced(by:)`), without `Clock`'s generic layers: each layer is
    /// an executor switch of the sleeping task, and a load test sleeps ~10,000 times a second.
    /// Unlike `sleep(for: .zero)`, a zero duration does not yield.
    package static func sleep(positive duration: Duration) async throws {
        guard duration > .zero else { return }
        try await sleep(untilNanoseconds: scheduler().now &+ UInt64(bitPattern: duration.simNanoseconds))
    }

    /// The virtual time elapsed since the run started, as a `Duration`.
    package static var elapsed: Duration { .nanoseconds(Int64(bitPattern: scheduler().now)) }

    private static func sleep(untilNanoseconds deadline: UInt64) async throws {
        let scheduler = Self.scheduler()
        try Task.checkCancellation()
        if deadline <= scheduler.now {
            await Task.yield()
            return
        }
        let waker = SleepWaker()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                if waker.cancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                waker.continuation = continuation
                waker.timer = scheduler.schedule(waker, atNanoseconds: deadline)
            }
        } onCancel: {
            // Cancellation happens on the simulation's thread (the only one running its tasks).
            waker.cancel(in: scheduler)
        }
    }

    static func scheduler() -> Scheduler {
        guard let scheduler = SimulationContext.current else {
            preconditionFailure("SimClock used outside a running simulation")
        }
        return scheduler
    }
}

extension Duration {
    /// Whole nanoseconds (truncating sub-nanosecond parts).
    var simNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
