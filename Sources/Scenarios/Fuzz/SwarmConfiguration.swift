import Domain
import Sim

/// Swarm testing (Groce et al., ISSTA 2012): per seed, which fault kinds are on and at what rate,
/// drawn from the seed's dedicated `swarm` stream so it never disturbs the run's own draws.
/// A kind that is off is absent (its knobs are zero), so a seed explores a narrower fault mix.
public struct SwarmConfiguration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The fault kinds a swarm can turn on or off, in drawing order.
    public enum FaultKind: String, Sendable, Hashable, Codable, CaseIterable {
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
        var rateRange: ClosedRange<Double> {
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

    /// Rate per enabled kind (kinds not listed are off), keyed by `FaultKind.rawValue`.
    public private(set) var rates: [String: Double]

    /// A swarm with the given kinds on at the given rates.
    public init(rates: [FaultKind: Double]) {
        var byName: [String: Double] = [:]
        for (kind, rate) in rates {
            precondition(rate >= 0 && rate <= 1, "a swarm rate is a probability")
            byName[kind.rawValue] = rate
        }
        self.rates = byName
    }

    /// The stream name swarm draws come from (kept apart from every stream a run uses).
    public static let streamName = "swarm"

    /// Draws the swarm of `seed`: each kind on with probability 1/2, its rate uniform in its
    /// range, rounded to 1/1000 so artifacts stay readable.
    public static func draw(seed: UInt64) -> SwarmConfiguration {
        var random = RandomStreams(seed: seed).stream(named: streamName)
        var rates: [FaultKind: Double] = [:]
        for kind in FaultKind.allCases {
            let on = random.below(2) == 0
            let position = Double(random.below(1_001)) / 1_000
            guard on else { continue }
            let range = kind.rateRange
            rates[kind] = ((range.lowerBound + (range.upperBound - range.lowerBound) * position) * 1_000).rounded() / 1_000
        }
        return SwarmConfiguration(rates: rates)
    }

    /// What is wrong with a swarm read from a file (an unknown kind, a rate that is not a
    /// probability); nil when it is one `draw` could have made.
    public var problem: String? {
        for name in rates.keys.sorted() {
            guard FaultKind(rawValue: name) != nil else {
                return "unknown fault kind '\(name)'; kinds: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", "))"
            }
            guard let rate = rates[name], rate.isFinite, rate >= 0, rate <= 1 else { return "rate of \(name) is not a probability in 0...1" }
        }
        return nil
    }

    /// Enabled kinds in `FaultKind` order.
    public var enabledKinds: [FaultKind] { FaultKind.allCases.filter { rates[$0.rawValue] != nil } }

    /// The same swarm with `kind` turned off.
    public func without(_ kind: FaultKind) -> SwarmConfiguration {
        var copy = self
        copy.rates[kind.rawValue] = nil
        return copy
    }

    /// `kind=rate` pairs in order, or "no faults".
    public var description: String {
        let parts = enabledKinds.map { "\($0.rawValue)=\(rates[$0.rawValue]!)" }
        return parts.isEmpty ? "no faults" : parts.joined(separator: " ")
    }

    /// `base` with every kind's knobs set to its rate when on and to zero when off.
    public func apply(to base: BackendFaults) -> BackendFaults {
        var faults = base
        func rate(_ kind: FaultKind) -> Double { rates[kind.rawValue] ?? 0 }
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
