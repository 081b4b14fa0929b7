import Synchronization

/// SendGrid's REST API: rate limited with 429 (an account's requests per refresh period, which
/// other senders on the account share, and transient throttling), can time out after sending, and
/// has no idempotency key, so a retry after a time-out sends twice (MODEL_RULES §17, §33).
public final class EmailService: Sendable {
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let outbox: Outbox
    private let random: SharedRandom
    private let ledger: FaultLedger
    private let outages: Outages
    /// The account's refresh period now (its index from the clock's zero) and this app's requests in it.
    private let period = Mutex<(index: Int64, used: Int)>((0, 0))

    init(env: DomainEnvironment, faults: BackendFaults, outbox: Outbox, ledger: FaultLedger, outages: Outages) {
        self.ledger = ledger
        self.outages = outages
        self.env = env
        self.faults = faults
        self.outbox = outbox
        self.random = SharedRandom(env, stream: "sendgrid")
    }

    /// Sends `message` to every recipient. RESOURCE_EXHAUSTED (429) means nothing was sent;
    /// DEADLINE_EXCEEDED means it *was* sent but the caller cannot know.
    public func send(_ message: EmailMessage) async throws(BackendError) {
        precondition(!message.to.isEmpty, "an email needs a recipient")
        try Invocation.admitCurrent()
        let latency = random.sample(faults.emailLatency)
        let rateLimitProbability = outages.probability(faults.emailRateLimitProbability, of: .sendGrid, atElapsed: env.clock.elapsedNanoseconds)
        let rateLimited = random.chance(rateLimitProbability)
        let timesOut = random.chance(faults.emailTimeoutProbability)
        let overQuota = !admitToPeriod()
        try? await env.clock.sleep(for: latency)
        if overQuota {
            ledger.observe(.emailQuotaExceeded, subject: "\(message.type) \(message.subject)")
            throw .resourceExhausted("SendGrid returned 429 Too Many Requests (X-RateLimit-Remaining: 0)")
        }
        ledger.opportunity(.emailRateLimit, probability: rateLimitProbability)  // once decided (ClientNetwork.send)
        if rateLimited {
            ledger.observe(.emailRateLimit, subject: "\(message.type) \(message.subject)")
            throw .resourceExhausted("SendGrid returned 429 Too Many Requests")
        }
        ledger.opportunity(.emailTimeout, probability: faults.emailTimeoutProbability)
        let now = env.clock.now
        for recipient in message.to {
            guard outbox.keepsRecords else {
                outbox.count(.email)
                continue
            }
            outbox.append(OutboxRecord(
                channel: .email, recipient: recipient, type: message.type,
                payload: ["subject": message.subject, "from": message.from, "body": message.body],
                sentAt: now, deliveredAt: now, token: nil, collapseKey: nil))
        }
        if timesOut {
            ledger.observe(.emailTimeout, subject: "\(message.type) \(message.subject)")
            try? await env.clock.sleep(for: faults.emailTimeout)
            throw .deadlineExceeded("SendGrid request timed out after \(faults.emailTimeout)")
        }
    }

    /// How long a retry must wait for the account's rate (`X-RateLimit-Reset` when
    /// `X-RateLimit-Remaining` is 0, read by a caller after a 429): zero while the period has
    /// requests left, else the time until it ends.
    public func retryAfter() -> Duration {
        let periodNanoseconds = faults.emailRatePeriod.nanoseconds
        let elapsed = env.clock.elapsedNanoseconds
        guard !hasRequestsLeft(atElapsed: elapsed) else { return .zero }
        return .nanoseconds(periodNanoseconds - elapsed % periodNanoseconds)
    }

    /// Whether a request at `elapsed` would be admitted (the period's count as it stands).
    private func hasRequestsLeft(atElapsed elapsed: Int64) -> Bool {
        let (index, elsewhere, limit) = quota(atElapsed: elapsed)
        return period.withLock { $0.index != index || Double($0.used) + elsewhere < limit }
    }

    /// The period `elapsed` falls in, the requests other senders have spent in it by then, and the limit.
    private func quota(atElapsed elapsed: Int64) -> (index: Int64, elsewhere: Double, limit: Double) {
        let periodNanoseconds = faults.emailRatePeriod.nanoseconds
        let progress = Double(elapsed % periodNanoseconds) / Double(periodNanoseconds)
        let limit = Double(faults.emailRequestsPerPeriod)
        return (elapsed / periodNanoseconds, (limit * faults.emailQuotaUsedElsewhere * progress).rounded(.down), limit)
    }

    /// Counts one request against the account's refresh period: false (a 429) once this app's
    /// requests and the share other senders have spent so far in the period reach the limit.
    private func admitToPeriod() -> Bool {
        let (index, elsewhere, limit) = quota(atElapsed: env.clock.elapsedNanoseconds)
        return period.withLock { state in
            if state.index != index { state = (index, 0) }
            guard Double(state.used) + elsewhere < limit else { return false }
            state.used += 1
            return true
        }
    }
}
