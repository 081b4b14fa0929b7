import Harness
import SimulatedFirebase

/// The simulated Firebase's knobs as a world swarm draws them (every fault probability of
/// `BackendFaults`, named as the fault ledger names their faults, and every outage kind), and how a
/// drawn world sets them. Defaults are `BackendFaults.default`'s; ceilings are several times them
/// (docs/domain.md, "What a world swarm draws").
public enum FirebaseWorld {
    /// Every fault knob, in drawing order (those `drawnAfterOutages` after the outages).
    public static let faultKnobs: [FaultKnob] = [
        FaultKnob("network-failure", default: 0.01, ceiling: 0.2),
        FaultKnob("network-timeout", default: 0.002, ceiling: 0.05),
        FaultKnob("latency-tails", default: 0.02, ceiling: 0.3),
        FaultKnob("trigger-duplicate", default: 0.005, ceiling: 0.3),
        FaultKnob("trigger-reorder", default: 0.15, ceiling: 0.6),
        FaultKnob("schedule-duplicate", default: 0.01, ceiling: 0.5),
        FaultKnob("schedule-overlap", default: 0.5, ceiling: 1),
        FaultKnob("contention-abort", default: 0.15, ceiling: 0.6),
        FaultKnob("fcm-token-failure", default: 0.01, ceiling: 0.2),
        FaultKnob("email-rate-limit", default: 0.01, ceiling: 0.3),
        FaultKnob("email-timeout", default: 0.005, ceiling: 0.1),
        FaultKnob("storage-upload-failure", default: 0.02, ceiling: 0.3),
        FaultKnob("cold-start", default: 0.05, ceiling: 0.5),
        FaultKnob("admin-call-failure", default: 0.003, ceiling: 0.05),
        FaultKnob("device-clock-off", default: 0.04, ceiling: 0.5),
        FaultKnob("device-clock-jump", default: 0.1, ceiling: 1),
        FaultKnob("listener-disconnect", default: 0.02, ceiling: 0.3),
        FaultKnob("function-crash", default: 0.0002, ceiling: 0.02),
        FaultKnob("admin-answer-lost", default: 0.0005, ceiling: 0.02),
        FaultKnob("instance-overshoot", default: 0.05, ceiling: 0.5, drawnAfterOutages: true),
    ]

    /// Every outage kind (`Outage.Service`).
    public static let outageKinds: [String] = Outage.Service.allCases.map(\.rawValue)

    /// The knobs a Firebase scenario offers.
    public static let knobs = WorldKnobs(faults: faultKnobs, outages: outageKinds)

    /// `base` with the world's fault rates set (knobs it does not list keep `base`'s) and its outages.
    public static func apply(_ world: World, to base: BackendFaults) -> BackendFaults {
        var faults = base
        for (name, rate) in world.faults.sorted(by: { $0.key < $1.key }) { set(name, rate, &faults) }
        faults.outages = world.outages.compactMap(outage)
        return faults
    }

    /// Sets knob `name` to `rate` in `faults`.
    static func set(_ name: String, _ rate: Double, _ faults: inout BackendFaults) {
        switch name {
        case "network-failure": faults.networkFailureProbability = rate
        case "network-timeout": faults.networkTimeoutProbability = rate
        case "latency-tails":
            faults.networkLatency.tailProbability = rate
            faults.listenerLatency.tailProbability = rate
            faults.triggerDelay.tailProbability = rate
            faults.fcmDelivery.tailProbability = rate
            faults.emailLatency.tailProbability = rate
            faults.storageUploadLatency.tailProbability = rate
            faults.adminOperationLatency.tailProbability = rate
            faults.fcmCallLatency.tailProbability = rate
        case "trigger-duplicate": faults.triggerDuplicateProbability = rate
        case "trigger-reorder": faults.triggerReorderProbability = rate
        case "schedule-duplicate": faults.scheduleDuplicateProbability = rate
        case "schedule-overlap": faults.scheduleOverlapRetryProbability = rate
        case "contention-abort": faults.abortProbabilityPerExcessWrite = rate
        case "fcm-token-failure": faults.fcmTokenFailureProbability = rate
        case "email-rate-limit": faults.emailRateLimitProbability = rate
        case "email-timeout": faults.emailTimeoutProbability = rate
        case "storage-upload-failure": faults.storageUploadFailureProbability = rate
        case "cold-start": faults.coldStartProbability = rate
        case "admin-call-failure": faults.adminCallFailureProbability = rate
        case "device-clock-off": faults.deviceClockOffProbability = rate
        case "device-clock-jump": faults.deviceClockJumpProbability = rate
        case "listener-disconnect": faults.listenerDisconnectProbability = rate
        case "function-crash": faults.functionCrashProbability = rate
        case "admin-answer-lost": faults.adminAnswerLostProbability = rate
        case "instance-overshoot": faults.instanceOvershootProbability = rate
        default: preconditionFailure("knob \(name) is not one of FirebaseWorld.faultKnobs (World.problem refuses it first)")
        }
    }

    /// The domain's outage for a drawn one (nil for a kind this build lacks; `World.problem` refuses it first).
    static func outage(_ draw: OutageDraw) -> Outage? {
        guard let service = Outage.Service(rawValue: draw.service) else { return nil }
        return Outage(
            service: service, startsPerHour: draw.startsPerHour, shortest: .seconds(draw.shortestSeconds),
            longest: .seconds(draw.longestSeconds), severity: draw.severity, startsDown: draw.startsDown)
    }
}
