import Harness
import SimulatedFirebase

/// The simulated Firebase's fault kinds as a swarm draws them, and how a drawn swarm sets the
/// backend's knobs.
public enum FirebaseSwarm {
    /// The fault kinds a swarm can turn on or off, in drawing order.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case latencyTails = "latency-tails"
        case drops
        case timeouts
        case duplicateTriggers = "duplicate-triggers"
        case reorderedTriggers = "reordered-triggers"
        case duplicateTicks = "duplicate-ticks"
        case overlappingTicks = "overlapping-ticks"
        case emailFailures = "email-failures"
        case contention

        /// The range a rate is drawn from (probabilities).
        public var rateRange: ClosedRange<Double> {
            switch self {
            case .latencyTails: 0.01...0.2
            case .drops: 0.005...0.1
            case .timeouts: 0.001...0.05
            case .duplicateTriggers: 0.01...0.3
            case .reorderedTriggers: 0.05...0.5
            case .duplicateTicks: 0.01...0.5
            case .overlappingTicks: 0.1...1.0
            case .emailFailures: 0.01...0.2
            case .contention: 0.05...0.5
            }
        }
    }

    /// The kinds as the harness draws them.
    public static let kinds: [SwarmKind] = Kind.allCases.map { SwarmKind($0.rawValue, rateRange: $0.rateRange) }
}

extension SwarmConfiguration {
    /// The swarm of `seed` over the simulated Firebase's kinds.
    public static func draw(seed: UInt64) -> SwarmConfiguration { draw(seed: seed, kinds: FirebaseSwarm.kinds) }

    /// A swarm with the given Firebase kinds on at the given rates.
    public init(rates: [FirebaseSwarm.Kind: Double]) {
        self.init(rates: Dictionary(uniqueKeysWithValues: rates.map { ($0.key.rawValue, $0.value) }))
    }

    /// `base` with every kind's knobs set to its rate when on and to zero when off.
    public func apply(to base: BackendFaults) -> BackendFaults {
        var faults = base
        func rate(_ kind: FirebaseSwarm.Kind) -> Double { self.rate(kind.rawValue) }
        let tail = rate(.latencyTails)
        faults.networkLatency.tailProbability = tail
        faults.listenerLatency.tailProbability = tail
        faults.triggerDelay.tailProbability = tail
        faults.fcmDelivery.tailProbability = tail
        faults.emailLatency.tailProbability = tail
        faults.networkFailureProbability = rate(.drops)
        faults.fcmTokenFailureProbability = rate(.drops)
        faults.networkTimeoutProbability = rate(.timeouts)
        faults.triggerDuplicateProbability = rate(.duplicateTriggers)
        faults.triggerReorderProbability = rate(.reorderedTriggers)
        faults.scheduleDuplicateProbability = rate(.duplicateTicks)
        faults.scheduleOverlapRetryProbability = rate(.overlappingTicks)
        faults.emailRateLimitProbability = rate(.emailFailures)
        faults.emailTimeoutProbability = rate(.emailFailures) / 2
        faults.abortProbabilityPerExcessWrite = rate(.contention)
        return faults
    }
}
