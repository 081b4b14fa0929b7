import Sim

/// Swarm testing (Groce et al., ISSTA 2012): per seed, which fault kinds are on and at what rate,
/// drawn from the seed's dedicated `swarm` stream so it never disturbs the run's own draws.
/// A kind that is off is absent (its knobs are zero), so a seed explores a narrower fault mix.
/// The kinds are the backend's (`Scenario.swarmKinds`); the harness draws and records rates by name.
public struct SwarmConfiguration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Rate per enabled kind (kinds not listed are off), keyed by the kind's name.
    package private(set) var rates: [String: Double]

    /// A swarm with the given kinds on at the given rates.
    package init(rates: [String: Double]) {
        for (name, rate) in rates { precondition(rate >= 0 && rate <= 1, "a swarm rate is a probability (\(name))") }
        self.rates = rates
    }

    /// The stream name swarm draws come from (kept apart from every stream a run uses).
    package static let streamName = "swarm"

    /// Draws the swarm of `seed` over `kinds`, in their order: each kind on with probability 1/2,
    /// its rate uniform in its range, rounded to 1/1000 so artifacts stay readable.
    package static func draw(seed: UInt64, kinds: [SwarmKind]) -> SwarmConfiguration {
        var random = RandomStreams(seed: seed).stream(named: streamName)
        var rates: [String: Double] = [:]
        for kind in kinds {
            let on = random.below(2) == 0
            let position = Double(random.below(1_001)) / 1_000
            guard on else { continue }
            let range = kind.rateRange
            rates[kind.name] = ((range.lowerBound + (range.upperBound - range.lowerBound) * position) * 1_000).rounded() / 1_000
        }
        return SwarmConfiguration(rates: rates)
    }

    /// What is wrong with a swarm read from a file for a scenario whose kinds are `kinds` (an
    /// unknown kind, a rate that is not a probability); nil when it is one `draw` could have made.
    package func problem(kinds: [SwarmKind]) -> String? {
        for name in rates.keys.sorted() {
            guard kinds.contains(where: { $0.name == name }) else {
                return "unknown fault kind '\(name)'; kinds: \(kinds.map(\.name).joined(separator: ", "))"
            }
            guard let rate = rates[name], rate.isFinite, rate >= 0, rate <= 1 else { return "rate of \(name) is not a probability in 0...1" }
        }
        return nil
    }

    /// Enabled kinds' names, sorted.
    package var enabledKinds: [String] { rates.keys.sorted() }

    /// The rate of kind `name` (0: off).
    package func rate(_ name: String) -> Double { rates[name] ?? 0 }

    /// The same swarm with kind `name` turned off.
    package func without(_ name: String) -> SwarmConfiguration {
        var copy = self
        copy.rates[name] = nil
        return copy
    }

    /// `kind=rate` pairs by name, or "no faults".
    public var description: String {
        let parts = enabledKinds.map { "\($0)=\(rates[$0]!)" }
        return parts.isEmpty ? "no faults" : parts.joined(separator: " ")
    }
}

/// A fault kind a swarm can turn on or off, with the range its rate is drawn from (probabilities).
public struct SwarmKind: Sendable, Hashable {
    /// The kind's name as swarms record it (`duplicate-triggers`).
    package let name: String
    /// The range a rate is drawn from.
    package let rateRange: ClosedRange<Double>

    /// A kind called `name` drawn from `rateRange`.
    package init(_ name: String, rateRange: ClosedRange<Double>) {
        precondition(rateRange.lowerBound >= 0 && rateRange.upperBound <= 1, "a swarm rate is a probability")
        self.name = name
        self.rateRange = rateRange
    }
}
