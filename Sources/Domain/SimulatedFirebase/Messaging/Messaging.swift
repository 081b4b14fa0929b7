import Synchronization

/// Firebase Cloud Messaging: `sendEachForMulticast` with at most 500 tokens a call, per-token
/// outcomes, and tokens that become UNREGISTERED when a device uninstalls the app.
public final class Messaging: Sendable {
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let outbox: Outbox
    private let unregisteredTokens = Mutex<Set<String>>([])
    private let failedTokens = Mutex<Set<String>>([])
    private let random: SharedRandom
    /// Token rotations' own stream, so drawing them leaves every delivery's draws as they were.
    private let rotations: SharedRandom
    /// Expiries' own stream, for the same reason.
    private let expiries: SharedRandom
    private let ledger: FaultLedger
    private let outages: Outages

    init(env: DomainEnvironment, faults: BackendFaults, outbox: Outbox, ledger: FaultLedger, outages: Outages) {
        self.outages = outages
        self.ledger = ledger
        self.env = env
        self.faults = faults
        self.outbox = outbox
        self.random = SharedRandom(env, stream: "fcm")
        self.rotations = SharedRandom(env, stream: "fcm-rotation")
        self.expiries = SharedRandom(env, stream: "fcm-expiry")
    }

    /// Marks `token` as dead (the device uninstalled the app); later sends report UNREGISTERED.
    public func unregister(token: String) { _ = unregisteredTokens.withLock { $0.insert(token) } }

    /// When, within `span` from now, FCM replaces `token` with a new one (drawn once per device at
    /// `fcmTokenRotationProbability`; MODEL_RULES §33), nil if it keeps it. The caller makes it
    /// happen then with `rotate(_:)`.
    public func rotationOffset(of token: String, within span: Duration) -> Duration? {
        let probability = faults.fcmTokenRotationProbability
        ledger.opportunity(.fcmTokenRotated, probability: probability)
        guard rotations.chance(probability) else { return nil }
        return rotations.duration(upTo: span)
    }

    /// Whether `token`'s device had been inactive for over 270 days when the run started (drawn
    /// once per device at `fcmTokenExpiryProbability`; MODEL_RULES §33): FCM expired the token,
    /// and sends to it answer UNREGISTERED (`fcm-token-expired`).
    public func expiredForInactivity(_ token: String) -> Bool {
        let probability = faults.fcmTokenExpiryProbability
        ledger.opportunity(.fcmTokenExpired, probability: probability)
        guard expiries.chance(probability) else { return false }
        ledger.observe(.fcmTokenExpired, subject: token)
        unregister(token: token)
        return true
    }

    /// FCM replaces `token` with a new one, which it returns: sends to the old one answer
    /// UNREGISTERED from now on (`fcm-token-rotated`).
    public func rotate(_ token: String) -> String {
        ledger.observe(.fcmTokenRotated, subject: token)
        unregister(token: token)
        return token + "-r"
    }

    /// Whether FCM ever answered a send to `token` with a transient failure (the platform's record,
    /// for checkers: a push the sender may then have given up on).
    public func hadTransientFailure(_ token: String) -> Bool { failedTokens.withLock { $0.contains(token) } }

    /// Sends `message` to each token; INVALID_ARGUMENT for an empty list or more than 500 tokens.
    public func sendEachForMulticast(tokens: [String], message: PushMessage) async throws(BackendError) -> [TokenOutcome] {
        guard !tokens.isEmpty else { throw .invalidArgument("sendEachForMulticast needs at least one token") }
        guard tokens.count <= faults.fcmMaxTokensPerCall else {
            throw .invalidArgument("sendEachForMulticast takes at most \(faults.fcmMaxTokensPerCall) tokens, got \(tokens.count); split the list")
        }
        return try await deliver(tokens.map { ($0, message) })
    }

    /// `sendEach`: one message per token (each with its own recipient), at most 500 in a call;
    /// INVALID_ARGUMENT for none or more. Outcomes come back per message, in order.
    public func sendEach(_ messages: [(token: String, message: PushMessage)]) async throws(BackendError) -> [TokenOutcome] {
        guard !messages.isEmpty else { throw .invalidArgument("sendEach needs at least one message") }
        guard messages.count <= faults.fcmMaxTokensPerCall else {
            throw .invalidArgument("sendEach takes at most \(faults.fcmMaxTokensPerCall) messages, got \(messages.count); split the list")
        }
        return try await deliver(messages)
    }

    /// One FCM call from a function: refused once the invocation is terminated, then its latency,
    /// then an outcome per message.
    private func deliver(_ messages: [(token: String, message: PushMessage)]) async throws(BackendError) -> [TokenOutcome] {
        try Invocation.admitCurrent()
        try? await env.clock.sleep(for: random.sample(faults.fcmCallLatency))
        let now = env.clock.now
        var outcomes: [TokenOutcome] = []
        outcomes.reserveCapacity(messages.count)
        for (token, message) in messages {
            let unregistered = unregisteredTokens.withLock { $0.contains(token) }
            let failureProbability = outages.probability(faults.fcmTokenFailureProbability, of: .fcm, atElapsed: env.clock.elapsedNanoseconds)
            if !unregistered { ledger.opportunity(.fcmTokenFailure, probability: failureProbability) }
            if unregistered {
                outcomes.append(.unregistered)
            } else if random.chance(failureProbability) {
                ledger.observe(.fcmTokenFailure, subject: "\(message.type) to \(message.recipient)")
                failedTokens.withLock { _ = $0.insert(token) }
                outcomes.append(.transientFailure)
            } else {
                outcomes.append(.success)
                let wait = random.sample(faults.fcmDelivery)  // drawn whatever the outbox keeps
                guard outbox.keepsRecords else {
                    outbox.count(.push)
                    continue
                }
                record(message, to: token, wait: wait, now: now)
            }
        }
        assert(outcomes.count == messages.count, "one outcome per message")
        return outcomes
    }

    /// Records a push FCM accepted: a wait past the delivery model's body (its tail) found the
    /// device away, so APNs holds it; what it supersedes or whether it expires is the outbox's
    /// `appendPush`, and each is counted where it happens.
    private func record(_ message: PushMessage, to token: String, wait: Duration, now: Timestamp) {
        var payload = message.data
        payload["title"] = message.title
        payload["body"] = message.body
        let push = OutboxRecord(
            channel: .push, recipient: message.recipient, type: message.type, payload: payload, sentAt: now,
            deliveredAt: now + wait, token: token, collapseKey: message.collapseKey, heldForDevice: wait > faults.fcmDelivery.bodyMax)
        let (record, superseded) = outbox.appendPush(
            push, timeToLive: message.timeToLive ?? faults.fcmDefaultTimeToLive, now: now, horizon: now - faults.fcmDelivery.tailMax)
        if let collapsed = superseded.collapsed { ledger.observe(.fcmCollapse, subject: "\(collapsed.type) to \(collapsed.recipient)") }
        if let replaced = superseded.replaced { ledger.observe(.apnsReplaced, subject: "\(replaced.type) to \(replaced.recipient)") }
        if record.fate == .expired { ledger.observe(.fcmTTLExpired, subject: "\(record.type) to \(record.recipient)") }
    }
}
