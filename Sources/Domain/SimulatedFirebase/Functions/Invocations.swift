/// Starts function invocations (MODEL_RULES §20; docs/domain.md, "Function life cycle"): each
/// gets the deadline of its function's execution timeout, and with `functionCrashProbability` its
/// instance crashes or is evicted mid-run, after 0–3 admin calls drawn uniformly (a crash after
/// the handler's last call still fails the invocation: it never reported success).
final class Invocations: Sendable {
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let ledger: FaultLedger
    private let random: SharedRandom
    /// Each function's maximum instances and the invocations queued for one.
    let limits: InstanceLimits

    init(env: DomainEnvironment, faults: BackendFaults, ledger: FaultLedger, tracker: TaskTracker) {
        self.env = env
        self.faults = faults
        self.ledger = ledger
        random = SharedRandom(env, stream: "functions.crash")
        limits = InstanceLimits(env: env, faults: faults, ledger: ledger, tracker: tracker)
    }

    /// How long a callable waits for a free instance before RESOURCE_EXHAUSTED.
    var callableQueuePatience: Duration { faults.callableQueuePatience }

    /// Runs `body` (the instance's start and the invocation) once `function` has an instance free
    /// (`InstanceLimits.admit`; a callable waits at most `patience`), and frees it after.
    func admitted<T>(_ function: String, patience: Duration? = nil, _ body: () async throws -> T) async throws -> T {
        try await limits.admit(function, patience: patience)
        defer { limits.release(function) }
        return try await body()
    }

    /// A new invocation of `function`, whose execution timeout is `timeout`.
    private func start(_ function: String, subject: String, timeout: Duration) -> Invocation {
        let probability = faults.functionCrashProbability
        var crashAfterCalls: Int?
        if probability > 0 {
            ledger.opportunity(.functionCrash, probability: probability)
            if random.chance(probability) { crashAfterCalls = Int(random.unitInterval() * 4) }
        }
        return Invocation(function: function, subject: subject, deadline: env.clock.now + timeout, crashAfterCalls: crashAfterCalls, ledger: ledger, clock: env.clock)
    }

    /// Runs `body` as one invocation of `function` whose deployed timeout is `timeout` (nil: the
    /// default): a terminated invocation throws its termination, whatever `body` did after it.
    /// The ledger names a termination `function`, then `target` (a trigger's document) if given.
    func run(_ function: String, target: String? = nil, timeout: Duration?, _ body: () async throws -> Void) async throws {
        let subject = target.map { "\(function) \($0)" } ?? function
        let invocation = start(function, subject: subject, timeout: timeout ?? faults.functionTimeout)
        var failure: Error?
        do { try await Invocation.$current.withValue(invocation) { try await body() } } catch { failure = error }
        if let termination = invocation.finish() { throw BackendError.terminated(function, termination) }
        if let failure { throw failure }
    }
}
