import Harness
import SimulatedFirebase

/// A simulated Firebase backend as a participant of a run: its fault ledger and coverage ledger,
/// read by the runner once the run has ended (the backend itself is held weakly: it is freed
/// when the run ends, the ledgers stay).
final class BackendParticipant: RunParticipant {
    let faultLedger: FaultLedger
    let coverageLedger: CoverageLedger
    weak let backend: Backend?

    init(_ backend: Backend) {
        self.faultLedger = backend.faultLedger
        self.coverageLedger = backend.coverage
        self.backend = backend
    }

    /// The backend, while it is allocated.
    var subject: AnyObject? { backend }

    /// The ledger's tallies, one observation per kind, in kind order.
    var faultObservations: [FaultObservation] { Self.observations(faultLedger) }

    /// The faults that took effect, rendered `fault <kind> <subject>` when read.
    var faultEvents: [ParticipantEvent] {
        faultLedger.events.map { event in
            ParticipantEvent(elapsedNanoseconds: event.elapsedNanoseconds, render: { "fault \(event.kind) \(event.subject)" })
        }
    }

    /// The declared functions, triggers, jobs and rules with their counts.
    var coverage: [CoverageEntry] { Self.coverage(coverageLedger) }

    /// `ledger`'s tallies as the harness's observations, in kind order.
    static func observations(_ ledger: FaultLedger) -> [FaultObservation] {
        let tallies = ledger.tallies
        return tallies.keys.sorted().map { kind in
            let tally = tallies[kind]!
            return FaultObservation(
                kind: FaultKindName(rawValue: kind.rawValue), opportunities: tally.opportunities,
                expectedBillionths: tally.expectedBillionths, varianceBillionths: tally.varianceBillionths, observed: tally.observed,
                otherSources: kind.otherSources)
        }
    }

    /// `ledger`'s counts as the harness's coverage entries.
    static func coverage(_ ledger: CoverageLedger) -> [CoverageEntry] {
        CoverageEntry.combining([], ledger.counts.map {
            CoverageEntry(kind: $0.kind.rawValue, name: $0.name, invocations: $0.invocations, failures: $0.failures)
        })
    }
}
