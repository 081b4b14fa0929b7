import Harness
import SimulatedFirebase

/// The simulated Firebase's fault kinds as a swarm draws them (`FaultTable`), and how a drawn swarm sets the
/// backend's knobs.
public enum FirebaseSwarm {
    /// The fault kinds a swarm can turn on or off, in drawing order (`FaultDial.SwarmGroup`).
    public typealias Kind = FaultDial.SwarmGroup

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

    /// `base` with every kind's dials set to its rate when on and to zero when off (`FaultTable`).
    public func apply(to base: BackendFaults) -> BackendFaults {
        FaultTable.applySwarm({ rate($0.rawValue) }, to: base)
    }
}
