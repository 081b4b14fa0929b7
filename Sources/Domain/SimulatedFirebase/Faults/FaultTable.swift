/// Every fault rate a world or a swarm turns, declared once (docs/domain.md, "The platform is not
/// kind" and "Fault knobs"): `FirebaseWorld`'s knobs, its `--fault` names, the swarm's groups and
/// `rehearse list` derive from it. Adding a rate is one entry here plus the place it is injected.
public enum FaultTable {
    /// The dials, in the order worlds draw them (those `drawnAfterOutages` after the outages).
    public static let dials: [FaultDial] = [
        FaultDial("network-failure", .networkFailure, [\.networkFailureProbability], ceiling: 0.2, swarm: (.drops, 1), source: "§18"),
        FaultDial("network-timeout", .networkTimeout, [\.networkTimeoutProbability], ceiling: 0.05, swarm: (.timeouts, 1), source: "§18"),
        FaultDial("latency-tails", nil, [
            \.networkLatency.tailProbability, \.listenerLatency.tailProbability, \.triggerDelay.tailProbability,
            \.fcmDelivery.tailProbability, \.emailLatency.tailProbability, \.storageUploadLatency.tailProbability,
            \.adminOperationLatency.tailProbability, \.fcmCallLatency.tailProbability,
        ], ceiling: 0.3, swarm: (.latencyTails, 1), source: "§18"),
        FaultDial("trigger-duplicate", .triggerDuplicate, [\.triggerDuplicateProbability], ceiling: 0.3, swarm: (.duplicateTriggers, 1), source: "§9"),
        FaultDial("trigger-reorder", .triggerReorder, [\.triggerReorderProbability], ceiling: 0.6, swarm: (.reorderedTriggers, 1), source: "§9"),
        FaultDial("schedule-duplicate", .scheduleDuplicate, [\.scheduleDuplicateProbability], ceiling: 0.5, swarm: (.duplicateTicks, 1), source: "§13"),
        FaultDial("schedule-overlap", .scheduleOverlap, [\.scheduleOverlapRetryProbability], ceiling: 1, swarm: (.overlappingTicks, 1), source: "§14"),
        FaultDial("contention-abort", .contentionAbort, [\.abortProbabilityPerExcessWrite], ceiling: 0.6, swarm: (.contention, 1), source: "§6"),
        FaultDial("fcm-token-failure", .fcmTokenFailure, [\.fcmTokenFailureProbability], ceiling: 0.2, swarm: (.drops, 1), source: "§16"),
        FaultDial("email-rate-limit", .emailRateLimit, [\.emailRateLimitProbability], ceiling: 0.3, swarm: (.emailFailures, 1), source: "§17"),
        FaultDial("email-timeout", .emailTimeout, [\.emailTimeoutProbability], ceiling: 0.1, swarm: (.emailFailures, 0.5), source: "§17"),
        FaultDial("storage-upload-failure", .storageUploadFailure, [\.storageUploadFailureProbability], ceiling: 0.3, source: "Cloud Storage"),
        FaultDial("cold-start", .coldStart, [\.coldStartProbability], ceiling: 0.5, source: "§20"),
        FaultDial("admin-call-failure", .adminCallFailure, [\.adminCallFailureProbability], ceiling: 0.05, source: "§22"),
        FaultDial("device-clock-off", .deviceClockOff, [\.deviceClockOffProbability], ceiling: 0.5, source: "§24"),
        FaultDial("device-clock-jump", .deviceClockJump, [\.deviceClockJumpProbability], ceiling: 1, source: "§24"),
        FaultDial("listener-disconnect", .listenerDisconnect, [\.listenerDisconnectProbability], ceiling: 0.3, source: "§19"),
        FaultDial("function-crash", .functionCrash, [\.functionCrashProbability], ceiling: 0.02, source: "§20"),
        FaultDial("admin-answer-lost", .adminAnswerLost, [\.adminAnswerLostProbability], ceiling: 0.02, source: "§22"),
        FaultDial("instance-overshoot", .instanceOvershoot, [\.instanceOvershootProbability], ceiling: 0.5, drawnAfterOutages: true, source: "§21"),
        FaultDial("trigger-late", .triggerLate, [\.triggerLateProbability], ceiling: 0.05, swarm: (.reorderedTriggers, 0.05), drawnAfterOutages: true, source: "§29"),
        FaultDial("fcm-token-rotated", .fcmTokenRotated, [\.fcmTokenRotationProbability], ceiling: 0.2, drawnAfterOutages: true, source: "§33"),
        FaultDial("fcm-token-expired", .fcmTokenExpired, [\.fcmTokenExpiryProbability], ceiling: 0.3, drawnAfterOutages: true, source: "§33"),
        FaultDial("app-check-attestation-failed", .appCheckAttestationFailed, [\.appCheckAttestationFailureProbability], ceiling: 0.2, drawnAfterOutages: true, source: "§32"),
        FaultDial("email-quota-shared", nil, [\.emailQuotaUsedElsewhere], ceiling: 0.99, swarm: (.emailFailures, 4.95), drawnAfterOutages: true, source: "§33"),
    ]

    /// The dial called `name`, if any.
    public static func dial(named name: String) -> FaultDial? { dials.first { $0.name == name } }

    /// `base` with every swarm group's dials at the group's rate (times their share) when on and
    /// at zero when off; dials no group turns keep `base`'s rate.
    public static func applySwarm(_ rate: (FaultDial.SwarmGroup) -> Double, to base: BackendFaults) -> BackendFaults {
        var faults = base
        for dial in dials {
            guard let swarm = dial.swarm else { continue }
            dial.set(rate(swarm.group) * swarm.share, in: &faults)
        }
        return faults
    }
}

extension FaultKind {
    /// The dial that draws this kind, nil for kinds that happen without a rate of their own
    /// (limits and contention: counted when they happen) or that no world turns.
    public var dial: FaultDial? { FaultTable.dial(named: rawValue) }
}
