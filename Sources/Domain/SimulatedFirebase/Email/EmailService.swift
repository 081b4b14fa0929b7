/// SendGrid's REST API: rate limited with 429, can time out after sending, and has no
/// idempotency key, so a retry after a time-out sends twice (MODEL_RULES §17).
public final class EmailService: Sendable {
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let outbox: Outbox
    private let random: SharedRandom
    private let ledger: FaultLedger
    private let outages: Outages

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
        try? await env.clock.sleep(for: latency)
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
}
