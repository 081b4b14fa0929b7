import Synchronization

/// One device's connection to the backend: every request pays latency both ways, may fail
/// UNAVAILABLE before reaching the server, or time out after the server applied it (so the
/// caller cannot tell whether it happened). All draws come from the device's own stream.
public final class ClientNetwork: Sendable {
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let random: SharedRandom
    private let ledger: FaultLedger
    private let outages: Outages
    private let online = Atomic<Bool>(true)
    /// The server's time as the quickest answer so far carried it, the device's uptime when it
    /// arrived, and that answer's round trip (Cristian's algorithm with a minimum-delay filter).
    private let learnt = Mutex<(serverTime: Int64, uptime: Int64, roundTrip: Int64)?>(nil)

    init(label: String, env: DomainEnvironment, faults: BackendFaults, ledger: FaultLedger, outages: Outages) {
        self.ledger = ledger
        self.outages = outages
        self.env = env
        self.faults = faults
        self.random = SharedRandom(env, stream: "network/\(label)")
    }

    /// Whether the device has a connection (`setOnline`).
    public var isOnline: Bool { online.load(ordering: .relaxed) }

    /// Takes the device offline or back online (offline requests fail UNAVAILABLE at once).
    public func setOnline(_ value: Bool) { online.store(value, ordering: .relaxed) }

    /// The server's time as this device can know it: the time the quickest answer so far left the
    /// server, plus the device's uptime since it arrived (so no offset or jump of the device's
    /// clock enters; it lags by that answer's return leg, less than its round trip). Nil before
    /// the first answer.
    public var serverTimeEstimate: Timestamp? {
        guard let learnt = learnt.withLock({ $0 }) else { return nil }
        return Timestamp(unixNanoseconds: learnt.serverTime + (env.clock.elapsedNanoseconds - learnt.uptime))
    }

    /// The fate of one request, drawn when it is sent.
    struct PendingResponse {
        let label: RequestLabel
        /// The device's uptime when the request left.
        let sentAt: Int64
        let responseLatency: Duration
        /// The chance the answer was lost (`networkTimeoutProbability`, or an outage's severity).
        let timeoutProbability: Double
        let timesOut: Bool
    }

    /// The request leg: checks connectivity, pays latency, maybe fails without effect.
    func send(_ label: RequestLabel) async throws(BackendError) -> PendingResponse {
        guard isOnline else { throw .unavailable("device offline during \(label)") }
        // Draw everything up front so the stream's use does not depend on the outcome.
        let sentAt = env.clock.elapsedNanoseconds
        let scale = outages.latencyScale(atElapsed: env.clock.elapsedNanoseconds)
        var requestLatency = random.sample(faults.networkLatency)
        var responseLatency = random.sample(faults.networkLatency)
        if scale != 1 {
            requestLatency = requestLatency * scale
            responseLatency = responseLatency * scale
        }
        let failureProbability = outages.probability(faults.networkFailureProbability, of: .clientNetwork, atElapsed: env.clock.elapsedNanoseconds)
        let fails = random.chance(failureProbability)
        let timeoutProbability = outages.probability(faults.networkTimeoutProbability, of: .lostAnswers, atElapsed: env.clock.elapsedNanoseconds)
        let timesOut = random.chance(timeoutProbability)
        try? await env.clock.sleep(for: requestLatency)
        // Counted once the outcome happens, as it is observed: a request still on its way when
        // the run ends has no outcome, and counting its chance would expect failures never seen.
        ledger.opportunity(.networkFailure, probability: failureProbability)
        if fails {
            ledger.observe(.networkFailure, subject: label.description)
            throw .unavailable("network error during \(label)")
        }
        return PendingResponse(label: label, sentAt: sentAt, responseLatency: responseLatency, timeoutProbability: timeoutProbability, timesOut: timesOut)
    }

    /// The response leg, after the server acted: pays latency or times out.
    func receive(_ pending: PendingResponse) async throws(BackendError) {
        // Counted here, not when sent: a request whose server side threw never reaches its answer.
        ledger.opportunity(.networkTimeout, probability: pending.timeoutProbability)
        if pending.timesOut {
            ledger.observe(.networkTimeout, subject: pending.label.description)
            try? await env.clock.sleep(for: faults.networkTimeout)
            throw .deadlineExceeded("\(pending.label) timed out")
        }
        let serverTime = env.clock.nowUnixNanoseconds
        try? await env.clock.sleep(for: pending.responseLatency)
        let arrival = env.clock.elapsedNanoseconds, roundTrip = arrival - pending.sentAt
        learnt.withLock { learnt in
            if learnt.map({ roundTrip < $0.roundTrip }) ?? true { learnt = (serverTime, arrival, roundTrip) }
        }
    }

    func roundTrip<T>(_ label: RequestLabel, _ body: () async throws(BackendError) -> T) async throws(BackendError) -> T {
        let pending = try await send(label)
        let result = try await body()
        try await receive(pending)
        return result
    }
}
