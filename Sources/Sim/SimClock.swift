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
            Instant(nanoseconds: nanoseconds &+ UInt64(bitPattern: duration.simNanoseconds))
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
    /// Unlike `sleep(for: .zero)`, a zero duration does not yield. Called from an actor, it sleeps
    /// without leaving the actor first (`sleep(untilNanoseconds:on:)`).
    nonisolated(nonsending) package static func sleep(positive duration: Duration) async throws {
        guard duration > .zero else { return }
        let deadline = scheduler().now &+ UInt64(bitPattern: duration.simNanoseconds)
        if let actor: any Actor = (#isolation) {
            try await sleep(untilNanoseconds: deadline, on: actor)
        } else {
            try await sleep(untilNanoseconds: deadline)
        }
    }

    /// The virtual time elapsed since the run started, as a `Duration`.
    package static var elapsed: Duration { .nanoseconds(Int64(bitPattern: scheduler().now)) }

    /// A sleep of nonisolated code (most sleeps: tasks, trigger deliveries, load iterations).
    nonisolated(nonsending) private static func sleep(untilNanoseconds deadline: UInt64) async throws {
        guard let (scheduler, waker) = try prepare(deadline) else {
            await Task.yield()  // a past deadline
            return
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { waker.arm($0, in: scheduler, at: deadline) }
        } onCancel: {
            // Cancellation happens on the simulation's thread (the only one running its tasks).
            waker.cancel(in: scheduler)
        }
    }

    /// A sleep of `actor`'s code: the closure captures the isolated `actor`, so it registers the
    /// timer on the actor (a closure in a merely nonsending function is nonisolated and would hop
    /// off it first). Two steps, the wake-up and the return to the actor, instead of three
    /// (`NonisolatedStepsTests`). Kept apart from the nonisolated sleep, which would pay for the
    /// isolated parameter's switch and existential at each of a load test's ~10,000 sleeps a second.
    private static func sleep(untilNanoseconds deadline: UInt64, on actor: isolated any Actor) async throws {
        guard let (scheduler, waker) = try prepare(deadline) else {
            await Task.yield()  // a past deadline
            return
        }
        try await withTaskCancellationHandler {
            _ = actor
            try await withUnsafeThrowingContinuation { waker.arm($0, in: scheduler, at: deadline) }
        } onCancel: {
            waker.cancel(in: scheduler)
        }
    }

    /// The scheduler and a new waker for a sleep until `deadline`, or nil if it has passed (the
    /// caller yields instead); throws if the task is already cancelled.
    private static func prepare(_ deadline: UInt64) throws -> (Scheduler, SleepWaker)? {
        let scheduler = Self.scheduler()
        try Task.checkCancellation()
        return deadline <= scheduler.now ? nil : (scheduler, SleepWaker())
    }

    static func scheduler() -> Scheduler {
        guard let scheduler = SimulationContext.current else {
            preconditionFailure("SimClock used outside a running simulation")
        }
        return scheduler
    }
}

extension Duration {
    /// Whole nanoseconds (truncating sub-nanosecond parts; past 292 years the count wraps, so a
    /// deadline that far out wraps too). A duration from zero to 18.4 s is its
    /// low 64 bits of attoseconds alone: one 64-bit division instead of `components`' 128-bit
    /// arithmetic.
    var simNanoseconds: Int64 {
        if _high == 0 { return Int64(_low / 1_000_000_000) }
        return Int64(truncatingIfNeeded: attoseconds / 1_000_000_000)
    }
}
