import Harness
import SimulatedFirebase

extension RunRequest {
    /// Planted defects of the run's backends (tests of the harness only; empty in real runs).
    package var backendDefects: Set<BackendDefect> {
        get { Set(testHooks.defects.compactMap(BackendDefect.init(rawValue:))) }
        set { testHooks.defects = Set(newValue.map(\.rawValue)) }
    }

    /// Live document actors at which the run's backends start parking idle ones (tests prove with
    /// a tiny value that parking changes no run; nil: the backend's default).
    package var documentParkingThreshold: Int? {
        get { testHooks.documentParkingThreshold }
        set { testHooks.documentParkingThreshold = newValue }
    }
}

extension ScenarioRunner.Execution {
    /// Document actors the run's backends parked (tests: proof that parking happened).
    package var parkedDocumentActors: Int { testCounts[ScenarioContext.parkedDocumentActorsCount] ?? 0 }
}

extension FaultKindName {
    /// The name of the simulated Firebase's fault kind `kind`.
    public init(_ kind: FaultKind) { self.init(rawValue: kind.rawValue) }
}
