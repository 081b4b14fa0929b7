import Synchronization

/// Cloud Functions: Firestore triggers, scheduled functions and HTTPS callables. Handlers use
/// the admin SDK (`backend.firestore`), which bypasses security rules.
public final class Functions: Sendable {
    /// A Firestore trigger's body.
    public typealias TriggerHandler = @Sendable (TriggerEvent) async throws -> Void
    /// A scheduled function's body.
    public typealias ScheduledHandler = @Sendable (ScheduledRun) async throws -> Void
    /// An HTTPS callable's body: the request in, the response value out.
    public typealias CallableHandler = @Sendable (CallableRequest) async throws -> Value

    struct ScheduledJob: Sendable {
        let name: String
        let period: Duration
        /// The deployed execution timeout (nil: `faults.functionTimeout`).
        let timeout: Duration?
        let handler: ScheduledHandler
    }
    struct Callable: Sendable {
        let timeout: Duration?
        let enforcesAppCheck: Bool
        let handler: CallableHandler
    }
    private struct State {
        var callables: [String: Callable] = [:]
        var scheduled: [ScheduledJob] = []
    }
    private let state = Mutex(State())
    private let env: DomainEnvironment
    private let dispatcher: TriggerDispatcher
    private let coverage: CoverageLedger

    /// The longest execution timeout a function can be deployed with (1st gen and event-driven
    /// functions: 540 s, MODEL_RULES §20).
    public static let maxTimeout = Duration.seconds(540)

    init(env: DomainEnvironment, dispatcher: TriggerDispatcher, coverage: CoverageLedger) {
        self.env = env
        self.dispatcher = dispatcher
        self.coverage = coverage
    }

    // MARK: Triggers

    /// Registers `handler` for writes of `kinds` in collections matching `collection`
    /// (`"honors"`, `"users/{uid}/notifications"`); `name` must be unique. `retry` is the
    /// deploy-time "retry on failure" option (MODEL_RULES §10): a throwing handler's event is
    /// redelivered with backoff instead of lost, so only an idempotent handler should ask for it.
    /// `timeout` is the deploy-time `timeoutSeconds` (nil: `BackendFaults.functionTimeout`, 60 s;
    /// at most `maxTimeout`): an invocation running past it is terminated, its writes so far kept.
    /// `maxInstances` is the deploy-time instance limit (nil: `BackendFaults.functionMaxInstances`,
    /// 3,000; 1 to `maxInstanceLimit`): events beyond it queue for a free instance.
    public func onWrite(
        _ collection: String, kinds: Set<TriggerKind>, name: String, retry: Bool = false, timeout: Duration? = nil,
        maxInstances: Int? = nil, _ handler: @escaping TriggerHandler
    ) {
        Self.checkTimeout(timeout, name)
        deploy(name, maxInstances: maxInstances)
        dispatcher.register(name: name, collection: collection, kinds: kinds, retry: retry, timeout: timeout, handler: handler)
    }
    /// Registers `name` to run on each document created in `collection`.
    public func onCreate(
        _ collection: String, name: String, retry: Bool = false, timeout: Duration? = nil, maxInstances: Int? = nil,
        _ handler: @escaping TriggerHandler
    ) {
        onWrite(collection, kinds: [.create], name: name, retry: retry, timeout: timeout, maxInstances: maxInstances, handler)
    }
    /// Registers `name` to run on each document updated in `collection`.
    public func onUpdate(
        _ collection: String, name: String, retry: Bool = false, timeout: Duration? = nil, maxInstances: Int? = nil,
        _ handler: @escaping TriggerHandler
    ) {
        onWrite(collection, kinds: [.update], name: name, retry: retry, timeout: timeout, maxInstances: maxInstances, handler)
    }
    /// Registers `name` to run on each document deleted in `collection`.
    public func onDelete(
        _ collection: String, name: String, retry: Bool = false, timeout: Duration? = nil, maxInstances: Int? = nil,
        _ handler: @escaping TriggerHandler
    ) {
        onWrite(collection, kinds: [.delete], name: name, retry: retry, timeout: timeout, maxInstances: maxInstances, handler)
    }

    /// The largest deploy-time `maxInstances` (1st gen's default and quota, MODEL_RULES §21).
    public static let maxInstanceLimit = 3_000

    /// Records a deploy-time instance limit: 1 to `maxInstanceLimit` (the deploy fails otherwise).
    private func deploy(_ name: String, maxInstances: Int?) {
        if let maxInstances {
            precondition((1...Self.maxInstanceLimit).contains(maxInstances), "\(name): maxInstances is 1 to 3,000, got \(maxInstances)")
        }
        invocations.limits.deploy(name, maxInstances: maxInstances)
    }

    /// A deploy-time timeout is 1 s to `maxTimeout` (Firebase refuses the deploy otherwise).
    private static func checkTimeout(_ timeout: Duration?, _ name: String) {
        guard let timeout else { return }
        precondition(timeout >= .seconds(1) && timeout <= maxTimeout, "\(name): a function's timeout is 1 to 540 seconds, got \(timeout)")
    }

    /// Descriptions of events lost because a handler threw (retries off or window exhausted).
    public var lostEvents: [String] { dispatcher.lostEvents }

    // MARK: Scheduled

    /// Registers a scheduled function (`every` ≥ 1 minute, MODEL_RULES §15); `CloudScheduler` drives it.
    /// `timeout` as for triggers (nil: 60 s): a run past it is terminated, its writes so far kept;
    /// `maxInstances` as for triggers (a run beyond it queues).
    public func schedule(
        _ name: String, every period: Duration, timeout: Duration? = nil, maxInstances: Int? = nil,
        _ handler: @escaping ScheduledHandler
    ) {
        precondition(period >= .seconds(60), "Cloud Scheduler's finest schedule is one minute")
        Self.checkTimeout(timeout, name)
        deploy(name, maxInstances: maxInstances)
        state.withLock { state in
            precondition(!state.scheduled.contains { $0.name == name }, "scheduled function \(name) registered twice")
            state.scheduled.append(ScheduledJob(name: name, period: period, timeout: timeout, handler: handler))
        }
        coverage.declare(.scheduledJob, name)
    }

    var scheduledJobs: [ScheduledJob] { state.withLock { $0.scheduled } }

    /// Cold starts of every invocation (`CloudScheduler` pays them for its runs).
    var coldStarts: ColdStarts { dispatcher.coldStarts }
    /// Timeouts and crashes of every invocation (`CloudScheduler` runs its runs in them).
    var invocations: Invocations { dispatcher.invocations }

    /// Runs scheduled function `name` once for the tick at `time`, now, without jitter or
    /// duplicates (for tests and tick-by-tick timeline tools).
    public func runScheduled(_ name: String, at time: Timestamp, attempt: Int = 1, isDuplicate: Bool = false) async throws {
        guard let job = state.withLock({ $0.scheduled.first { $0.name == name } }) else {
            throw BackendError.unknownFunction(name)
        }
        coverage.count(.scheduledJob, name)
        do {
            try await job.handler(ScheduledRun(name: name, scheduledTime: time, attempt: attempt, isDuplicate: isDuplicate))
        } catch {
            coverage.countFailure(.scheduledJob, name)
            throw error
        }
    }

    /// Drops every registered trigger, scheduled function and callable (`Backend.terminate`).
    func removeAll() {
        state.withLock { $0 = State() }
        dispatcher.removeAll()
    }

    // MARK: Callables

    /// Registers the HTTPS callable `name` (once per name); `timeout` as for triggers (nil: 60 s).
    /// A terminated call answers its caller INTERNAL (a crash) or DEADLINE_EXCEEDED (its timeout).
    /// `maxInstances` as for triggers; a call finding no instance free within
    /// `BackendFaults.callableQueuePatience` answers RESOURCE_EXHAUSTED. `enforceAppCheck`
    /// (`enforceAppCheck: true` in its options) refuses calls without a valid App Check token.
    public func callable(
        _ name: String, timeout: Duration? = nil, maxInstances: Int? = nil, enforceAppCheck: Bool = false, _ handler: @escaping CallableHandler
    ) {
        Self.checkTimeout(timeout, name)
        deploy(name, maxInstances: maxInstances)
        state.withLock { state in
            precondition(state.callables[name] == nil, "callable \(name) registered twice")
            state.callables[name] = Callable(timeout: timeout, enforcesAppCheck: enforceAppCheck, handler: handler)
        }
        coverage.declare(.callable, name)
    }

    /// Invokes a callable as `auth`; with a `network`, the call pays its latency and faults.
    /// `appCheck`: whether the call carries a valid App Check token (the device's
    /// `FirestoreClient.hasAppCheckToken`); a callable enforcing App Check refuses one without,
    /// UNAUTHENTICATED, before it runs.
    public func invoke(_ name: String, data: Fields, auth: AuthContext?, network: ClientNetwork? = nil, appCheck: Bool = false) async throws -> Value {
        guard let callable = state.withLock({ $0.callables[name] }) else { throw BackendError.unknownFunction(name) }
        let pending = try await network?.send(.call(name))
        coverage.count(.callable, name)
        if callable.enforcesAppCheck && !appCheck {
            coverage.countFailure(.callable, name)
            if let pending { try await network!.receive(pending) }
            throw BackendError.unauthenticated("\(name) enforces App Check and the call carries no valid App Check token")
        }
        var result = Value.null
        do {
            try await invocations.admitted(name, patience: invocations.callableQueuePatience) {
                await dispatcher.coldStarts.begin(name)
                try await invocations.run(name, timeout: callable.timeout) {
                    var request = CallableRequest(auth: auth, data: data, time: env.clock.now)
                    request.appCheckVerified = appCheck
                    result = try await callable.handler(request)
                }
            }
        } catch {
            coverage.countFailure(.callable, name)
            throw error
        }
        if let pending { try await network!.receive(pending) }
        return result
    }
}
