import Harness
import Sim
import SimulatedFirebase

extension ScenarioContext {
    /// The run's backend, built here rather than by the scenario so that no scenario can forget
    /// the run's faults: `base` (the scenario's own choice of rates) overridden by the swarm's
    /// kinds and rates when the run is swarmed, plus planted defects; joined to the run so the
    /// report says which faults had the chance to happen and which took effect. `environment`
    /// defaults to the running simulation's (a scenario with its own calendar epoch passes one).
    /// Terminated when the run ends (`Backend.terminate`), so the cycles apps make through the
    /// handlers they deploy do not keep every run's backend alive in a worker that runs thousands
    /// of seeds.
    public func backend(_ base: BackendFaults = .default, environment: DomainEnvironment? = nil) -> Backend {
        let backend = Backend(env: environment ?? SimulatedEnvironment.current(), faults: faults(base))
        let parkingThreshold = testHooks.documentParkingThreshold
        if let parkingThreshold { backend.firestore.setDocumentParkingThreshold(parkingThreshold) }
        // The ledger times events from its clock's zero; this is that zero in virtual time.
        let origin = Int64(Simulation.nowNanoseconds) - backend.env.clock.elapsedNanoseconds
        join(BackendParticipant(backend), originNanoseconds: origin, calendarZeroUnixNanoseconds: backend.env.clock.epochUnixNanoseconds - origin)
        Simulation.atEnd { [self] in
            if parkingThreshold != nil {  // the test hook's count; real runs skip the walk
                let actors = backend.firestore.documentActorCounts
                addTestCount(Self.parkedDocumentActorsCount, actors.parked + actors.rebuilt)
            }
            backend.terminate()
        }
        return backend
    }

    /// The backend faults of this run: `base` overridden by the swarm or the drawn world, plus planted defects.
    package func faults(_ base: BackendFaults) -> BackendFaults {
        var faults = swarm?.apply(to: base) ?? base
        if let world { faults = FirebaseWorld.apply(world, to: faults) }
        faults.defects.formUnion(testHooks.defects.compactMap(BackendDefect.init(rawValue:)))
        if faults.defects.contains(.optimisticServerTransactions) { faults.serverTransactionConcurrency = .optimistic }
        return faults
    }

    /// The test count of document actors the run's backends parked (only with a parking threshold).
    package static let parkedDocumentActorsCount = "parkedDocumentActors"
}
