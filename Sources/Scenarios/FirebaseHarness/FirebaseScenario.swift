import Harness

/// A scenario that runs on the simulated Firebase: it builds its backends through
/// `ScenarioContext.backend(_:environment:)`, and a swarm draws the backend's fault kinds.
public protocol FirebaseScenario: Scenario {}

extension FirebaseScenario {
    /// A Firebase scenario builds at least one backend.
    public var usesBackend: Bool { true }

    /// The simulated Firebase's fault kinds.
    public var swarmKinds: [SwarmKind] { FirebaseSwarm.kinds }

    /// The simulated Firebase's fault knobs and outage kinds.
    public var worldKnobs: WorldKnobs { FirebaseWorld.knobs }
}
