import Synchronization

/// Counts, per fault kind, how often the backend had the chance to inject it, how often it was
/// expected to (the sum of the configured probabilities over those chances) and how often it was
/// *observed* where it takes effect (a duplicate counted when it is delivered, a reorder when an
/// older event is delivered after a newer one, a failure when it is thrown).
///
/// A sweep adds the ledgers of its seeds and compares observed with expected (a binomial bound):
/// a backend that draws a fault but never delivers it — kinder than production — fails the sweep
/// instead of passing every check (`docs/domain.md`, "Faults observed").
public final class FaultLedger: Sendable {
    /// One kind's totals.
    public struct Tally: Sendable, Hashable, Codable {
        /// Chances to inject the fault.
        public var opportunities: Int = 0
        /// Sum of the configured probabilities over those chances, in billionths (integers, so
        /// sums are exact and a merge of shards equals one machine's sweep).
        public var expectedBillionths: UInt64 = 0
        /// Sum of p·(1 − p) over those chances (the binomial variance of `observed`), in billionths.
        public var varianceBillionths: UInt64 = 0
        /// Times the fault took effect.
        public var observed: Int = 0

        /// A tally with the given counts (zero by default).
        public init(opportunities: Int = 0, expectedBillionths: UInt64 = 0, varianceBillionths: UInt64 = 0, observed: Int = 0) {
            self.opportunities = opportunities
            self.expectedBillionths = expectedBillionths
            self.varianceBillionths = varianceBillionths
            self.observed = observed
        }

        /// Adds another tally (of another seed).
        public mutating func add(_ other: Tally) {
            opportunities += other.opportunities
            expectedBillionths &+= other.expectedBillionths
            varianceBillionths &+= other.varianceBillionths
            observed += other.observed
        }
    }

    /// One fault that took effect (or an event a fault cost), for failure stories.
    public struct Event: Sendable, Hashable, Codable {
        /// Nanoseconds since the backend's clock was wrapped.
        public var elapsedNanoseconds: Int64
        /// A `FaultKind` raw value, or `trigger-event-lost` (a handler threw and retries were off).
        public var kind: String
        /// What it hit: a document path, a request, a job, a recipient.
        public var subject: String
    }

    /// Events kept for stories at most (later ones are counted, not kept).
    public static let maxEvents = 5_000

    private struct State {
        /// By `FaultKind.ordinal`; nil until the kind's first opportunity or observation.
        var tallies = [Tally?](repeating: nil, count: FaultKind.allCases.count)

        /// Applies `change` to `kind`'s tally, creating it on first use.
        mutating func tally(_ kind: FaultKind, _ change: (inout Tally) -> Void) {
            var tally = tallies[kind.ordinal] ?? Tally()
            change(&tally)
            tallies[kind.ordinal] = tally
        }
        var events: [Event] = []
        /// Every function invocation the platform terminated, kept whole (`terminations`).
        var terminations: [Event] = []
        /// Every trigger event held back (`trigger-late`), kept whole (`lateDeliveries`).
        var lateDeliveries: [Event] = []
        /// Per trigger and document: the last commit seen at dispatch (for reorder chances).
        var lastCommit: [String: Timestamp] = [:]
        /// Per trigger and document: the newest commit delivered so far (for observed reorders).
        var newestDelivered: [String: Timestamp] = [:]
        /// Per trigger and document: events dispatched and not yet delivered.
        var inFlight: [String: Int] = [:]
    }
    private let state = Mutex(State())

    private let clock: DomainClock?

    /// A ledger whose events carry times from `clock` (nil: all at 0).
    public init(clock: DomainClock? = nil) { self.clock = clock }

    /// One chance to inject `kind` with probability `probability` (no-op when it is 0).
    public func opportunity(_ kind: FaultKind, probability: Double) {
        guard probability > 0 else { return }
        let p = min(1, probability)
        let expected = UInt64((p * 1e9).rounded()), variance = UInt64((p * (1 - p) * 1e9).rounded())
        state.withLock { state in
            state.tally(kind) { tally in
                tally.opportunities += 1
                tally.expectedBillionths &+= expected
                tally.varianceBillionths &+= variance
            }
        }
    }

    /// `kind` took effect on `subject`.
    public func observe(_ kind: FaultKind, subject: String) {
        state.withLock { $0.tally(kind) { $0.observed += 1 } }
        log(kind.rawValue, subject: subject)
    }

    /// An invocation named `subject` was terminated (`.functionCrash` or `.functionTimeout`):
    /// observed, and kept in `terminations` beyond `maxEvents`.
    func observeTermination(_ kind: FaultKind, subject: String) {
        observe(kind, subject: subject)
        let event = Event(elapsedNanoseconds: clock?.elapsedNanoseconds ?? 0, kind: kind.rawValue, subject: subject)
        state.withLock { $0.terminations.append(event) }
    }

    /// A trigger event of `subject` ("`function` `document`") was held back (`trigger-late`):
    /// observed, and kept in `lateDeliveries` beyond `maxEvents`.
    func observeLateDelivery(subject: String) {
        observe(.triggerLate, subject: subject)
        let event = Event(elapsedNanoseconds: clock?.elapsedNanoseconds ?? 0, kind: FaultKind.triggerLate.rawValue, subject: subject)
        state.withLock { $0.lateDeliveries.append(event) }
    }

    /// Every trigger event the platform held back, in order, however many: what a check of a
    /// trigger's promptness consults to excuse the hold (subjects "`function` `document`").
    public var lateDeliveries: [Event] { state.withLock { $0.lateDeliveries } }

    /// Every invocation the platform terminated (its instance crashed, or it ran past its
    /// timeout), in order, however many: the record checks consult to know what an invocation may
    /// have left undone (subjects as `Invocations.run` names them).
    public var terminations: [Event] { state.withLock { $0.terminations } }

    /// Something a fault cost (no tally): e.g. `trigger-event-lost` when a handler threw.
    public func note(_ kind: String, subject: String) { log(kind, subject: subject) }

    private func log(_ kind: String, subject: String) {
        let event = Event(elapsedNanoseconds: clock?.elapsedNanoseconds ?? 0, kind: kind, subject: subject)
        state.withLock { state in
            if state.events.count < Self.maxEvents { state.events.append(event) }
        }
    }

    /// The faults that took effect, in the order they did (at most `maxEvents`).
    public var events: [Event] { state.withLock { $0.events } }

    /// A trigger event was dispatched: a reorder chance when the previous commit of the same
    /// trigger and document is less than `window` older and still in flight (a delivered event
    /// cannot be overtaken) — computed here, apart from the dispatcher's own bookkeeping.
    func triggerDispatched(key: String, commit: Timestamp, window: Duration, probability: Double) {
        let (previous, pending) = state.withLock { state -> (Timestamp?, Int) in
            defer {
                state.lastCommit[key] = commit
                state.inFlight[key, default: 0] += 1
            }
            return (state.lastCommit[key], state.inFlight[key] ?? 0)
        }
        if let previous, pending > 0, commit - previous < window { opportunity(.triggerReorder, probability: probability) }
    }

    /// A trigger event (not a duplicate) was delivered: a reorder is observed when a newer commit
    /// of the same trigger and document was delivered before it.
    func triggerDelivered(key: String, commit: Timestamp) {
        let inverted = state.withLock { state -> Bool in
            state.inFlight[key, default: 1] -= 1
            guard let newest = state.newestDelivered[key], newest > commit else {
                state.newestDelivered[key] = commit
                return false
            }
            return true
        }
        if inverted { observe(.triggerReorder, subject: key) }
    }

    /// Every kind's totals so far, by kind.
    public var tallies: [FaultKind: Tally] {
        let tallies = state.withLock { $0.tallies }
        var byKind: [FaultKind: Tally] = [:]
        for kind in FaultKind.allCases { if let tally = tallies[kind.ordinal] { byKind[kind] = tally } }
        return byKind
    }
}
