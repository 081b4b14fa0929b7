import Synchronization

/// Delivers trigger events at least once, unordered and late (MODEL_RULES §9–12).
///
/// Per committed write and matching trigger: a delay drawn from `triggerDelay`; events of the
/// same document and trigger keep commit order except that a write closer than
/// `triggerReorderWindow` to the previous one overtakes it with `triggerReorderProbability`;
/// with `triggerLateProbability` an event is held back 10 s–10 min and the document's later
/// events pass it, however far apart (§29); with `triggerDuplicateProbability` a second delivery
/// follows; a throwing handler loses the event unless retries are on, else is retried with
/// exponential backoff within `triggerRetryWindow`.
///
/// An order chosen for two events of one document is kept by planning them more than
/// `concurrencyWindow` apart: timers closer than that are concurrent, and the scheduling
/// strategy, not the deadline, picks which fires first (docs/domain.md, "Timing window"). With
/// them 1 ns apart, writes 1.5 s apart were delivered out of order and chosen overtakes were
/// undone (docs/domain.md, "Conformance suite").
final class TriggerDispatcher: Sendable {
    typealias Handler = @Sendable (TriggerEvent) async throws -> Void
    /// A class: every commit walks the registrations, and copying a struct of three references
    /// per registration cost more than matching its pattern.
    final class Registration: Sendable {
        let name: String
        let pattern: PathPattern
        /// The kinds it fires on, a bit each (`bit(_:)`): checked at every commit, where hashing a
        /// `Set` cost more than the check.
        let kinds: UInt8
        /// Deployed with "retry on failure" (otherwise only `faults.triggerRetriesEnabled` retries).
        let retry: Bool
        /// The deployed execution timeout (nil: `faults.functionTimeout`).
        let timeout: Duration?
        let handler: Handler

        init(name: String, pattern: PathPattern, kinds: UInt8, retry: Bool, timeout: Duration?, handler: @escaping Handler) {
            self.name = name
            self.pattern = pattern
            self.kinds = kinds
            self.retry = retry
            self.timeout = timeout
            self.handler = handler
        }
    }
    private struct State {
        var registrations: [Registration] = []
        /// Last (commit time, delivery time) per "trigger|document", for the ordering model.
        var lastDelivery: [String: (commit: Int64, delivery: Int64)] = [:]
        var failures: [String] = []
    }
    private let state = Mutex(State())
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let tracker: TaskTracker
    private let ledger: FaultLedger
    private let coverage: CoverageLedger
    private let delayRandom: SharedRandom
    private let duplicateRandom: SharedRandom
    private let reorderRandom: SharedRandom
    private let retryRandom: SharedRandom
    private let lateRandom: SharedRandom
    /// The real server that delivers this project's events (nil: its own commits do).
    private let remote: (any FirestoreRemote)?
    /// Cold starts of every function invocation (triggers, callables, scheduled runs).
    let coldStarts: ColdStarts
    /// Timeouts and crashes of every function invocation.
    let invocations: Invocations

    init(
        env: DomainEnvironment, faults: BackendFaults, tracker: TaskTracker, ledger: FaultLedger, coverage: CoverageLedger,
        remote: (any FirestoreRemote)? = nil
    ) {
        self.remote = remote
        self.ledger = ledger
        self.coverage = coverage
        self.env = env
        self.faults = faults
        self.tracker = tracker
        delayRandom = SharedRandom(env, stream: "triggers.delay")
        duplicateRandom = SharedRandom(env, stream: "triggers.duplicate")
        reorderRandom = SharedRandom(env, stream: "triggers.reorder")
        retryRandom = SharedRandom(env, stream: "triggers.retry")
        lateRandom = SharedRandom(env, stream: "triggers.late")
        coldStarts = ColdStarts(env: env, faults: faults, ledger: ledger)
        invocations = Invocations(env: env, faults: faults, ledger: ledger, tracker: tracker)
    }

    func register(name: String, collection pattern: String, kinds: Set<TriggerKind>, retry: Bool = false, timeout: Duration? = nil, handler: @escaping Handler) {
        let registration = Registration(
            name: name, pattern: PathPattern(pattern), kinds: kinds.reduce(0) { $0 | Self.bit($1) }, retry: retry,
            timeout: timeout, handler: handler)
        state.withLock { state in
            precondition(!state.registrations.contains { $0.name == name }, "trigger \(name) registered twice")
            state.registrations.append(registration)
        }
        coverage.declare(.trigger, name)
        remote?.deployTrigger(name: name, collection: pattern, kinds: kinds)
    }

    /// An event the real server delivered to `trigger`: handed to its handler as a committed
    /// change's event is (retries, instance limits, coverage), without the simulated delivery's
    /// delay, duplicates or reordering (the server's are what they are).
    func deliverRemote(trigger: String, before: DocumentSnapshot, after: DocumentSnapshot) {
        guard let registration = state.withLock({ $0.registrations.first { $0.name == trigger } }) else { return }
        let kind: TriggerKind = before.exists ? (after.exists ? .update : .delete) : .create
        guard registration.kinds & Self.bit(kind) != 0 else { return }
        let event = TriggerEvent(kind: kind, before: before, after: after, isDuplicate: false, ownsDuplicateId: false, attempt: 1)
        let key = Self.orderKey(trigger, after.path)
        tracker.spawn { [self] in await deliver(registration, event, key: key) }
    }

    /// Drops every registration and the ordering model's memory (`Backend.terminate`).
    func removeAll() {
        state.withLock { state in
            state.registrations = []
            state.lastDelivery = [:]
        }
    }

    /// Handler errors that lost their event (retries off) or exhausted the retry window.
    var lostEvents: [String] { state.withLock { $0.failures } }

    func dispatch(before: DocumentSnapshot, after: DocumentSnapshot) {
        let kind: TriggerKind = before.exists ? (after.exists ? .update : .delete) : .create
        let registrations = state.withLock { $0.registrations }
        for registration in registrations
        where registration.kinds & Self.bit(kind) != 0 && registration.pattern.matches(after.path.collection) {
            let key = Self.orderKey(registration.name, after.path)
            var event = TriggerEvent(kind: kind, before: before, after: after, isDuplicate: false, ownsDuplicateId: false, attempt: 1)
            ledger.opportunity(.triggerLate, probability: faults.triggerLateProbability)
            if lateRandom.chance(faults.triggerLateProbability) {
                // Held back; not part of the document's ordering, so its later events pass it.
                event.isLate = true
                ledger.observeLateDelivery(subject: "\(registration.name) \(after.path)")
                let hold = faults.triggerLateDelayMin + lateRandom.duration(upTo: faults.triggerLateDelayMax - faults.triggerLateDelayMin)
                schedule(registration, event, key: key, at: event.commitTime + hold)
            } else {
                ledger.triggerDispatched(
                    key: key, commit: event.commitTime,
                    window: faults.triggerReorderWindow, probability: faults.triggerReorderProbability)
                schedule(registration, event, key: key, at: deliveryTime(key: key, event: event))
            }
            if duplicateRandom.chance(faults.triggerDuplicateProbability) {
                let duplicate = TriggerEvent(
                    kind: kind, before: before, after: after, isDuplicate: true, ownsDuplicateId: !faults.duplicatesShareEventId, attempt: 1)
                schedule(registration, duplicate, key: key, at: after.updateTime + delayRandom.sample(faults.triggerDelay))
            }
        }
    }

    /// The bit of `kind` in `Registration.kinds`.
    static func bit(_ kind: TriggerKind) -> UInt8 {
        switch kind {
        case .create: 1
        case .update: 2
        case .delete: 4
        }
    }

    /// When `event` of the trigger and document `key` (`orderKey`) is delivered.
    private func deliveryTime(key: String, event: TriggerEvent) -> Timestamp {
        let commit = event.commitTime.unixNanoseconds
        var delivery = commit + delayRandom.sample(faults.triggerDelay).nanoseconds
        let previous = state.withLock { $0.lastDelivery[key] }
        // Farther apart than the concurrency window, so the strategy cannot swap the two timers.
        let gap = faults.concurrencyWindow.nanoseconds + 1
        let window = faults.defects.contains(.reorderWindowUnitSlip)
            ? faults.triggerReorderWindow.components.seconds  // the planted slip: seconds against nanoseconds
            : faults.triggerReorderWindow.nanoseconds
        if let previous, commit - previous.commit < window {
            if reorderRandom.chance(faults.triggerReorderProbability) {
                // Overtakes the previous event (at once, if that is before this commit).
                delivery = max(commit, min(delivery, previous.delivery - gap))
            } else {
                delivery = max(delivery, previous.delivery + gap)
            }
        } else if let previous {
            delivery = max(delivery, previous.delivery + gap)
        }
        state.withLock { $0.lastDelivery[key] = (commit, delivery) }
        return Timestamp(unixNanoseconds: delivery)
    }

    private func schedule(_ registration: Registration, _ event: TriggerEvent, key: String, at delivery: Timestamp) {
        let clock = env.clock
        tracker.spawn { [self] in
            try? await clock.sleep(until: delivery)
            await deliver(registration, event, key: key)
        }
    }

    /// The ledger's key for the ordering of one trigger's events on one document.
    static func orderKey(_ trigger: String, _ path: DocumentPath) -> String { "\(trigger)|\(path)" }

    /// Delivers `first` (retrying as deployed); `key` is its `orderKey`.
    private func deliver(_ registration: Registration, _ first: TriggerEvent, key: String) async {
        if first.isDuplicate && faults.defects.contains(.duplicatesNeverDelivered) { return }  // the planted defect
        if first.isDuplicate {
            ledger.observe(.triggerDuplicate, subject: "\(registration.name) \(first.path)")
        } else {
            // The duplicate's chance is counted when the original arrives: both are delayed by the
            // same model, so a run that ends with deliveries in flight cuts both alike.
            ledger.opportunity(.triggerDuplicate, probability: faults.triggerDuplicateProbability)
            if !first.isLate { ledger.triggerDelivered(key: key, commit: first.commitTime) }
        }
        var event = first
        while true {
            do {
                coverage.count(.trigger, registration.name)
                try await invocations.admitted(registration.name) {
                    event.instance = await coldStarts.begin(registration.name)
                    let attempt = event
                    try await invocations.run(registration.name, target: "\(event.path)", timeout: registration.timeout) { try await registration.handler(attempt) }
                }
                return
            } catch {
                coverage.countFailure(.trigger, registration.name)
                let elapsed = env.clock.now - first.commitTime
                guard faults.triggerRetriesEnabled || registration.retry, elapsed < faults.triggerRetryWindow else {
                    let note = "\(registration.name) lost \(event.eventId) (attempt \(event.attempt)): \(error)"
                    state.withLock { $0.failures.append(note) }
                    ledger.note("trigger-event-lost", subject: note)
                    return
                }
                try? await env.clock.sleep(for: retryBackoff(attempt: event.attempt))
                event = event.retried()
            }
        }
    }

    /// The wait before retry `attempt + 1`: exponential from `triggerRetryBackoffMin`, doubling
    /// per attempt up to `triggerRetryBackoffMax`, drawn between half of that and all of it
    /// (MODEL_RULES §29: "exponential backoff").
    private func retryBackoff(attempt: Int) -> Duration {
        let minimum = faults.triggerRetryBackoffMin, maximum = faults.triggerRetryBackoffMax
        var ceiling = minimum
        for _ in 1..<max(1, min(attempt, 32)) where ceiling < maximum { ceiling = min(maximum, ceiling * 2) }
        return ceiling / 2 + retryRandom.duration(upTo: ceiling - ceiling / 2)
    }
}
