/// Something a run builds that its report must hear from: the simulated Firebase is one (its
/// fault ledger, its coverage, its calendar). The harness knows no backend; a backend's bridge
/// joins each one it builds to the run (`ScenarioContext.join`), and the runner reads them once
/// the run has ended.
package protocol RunParticipant: AnyObject, Sendable {
    /// Each fault kind's chances, expectation and occurrences so far.
    var faultObservations: [FaultObservation] { get }
    /// The faults that took effect, in the order they did.
    var faultEvents: [ParticipantEvent] { get }
    /// Each declared piece of code and how often it ran.
    var coverage: [CoverageEntry] { get }
    /// What the participant reports on (the backend), held weakly: nil once it was freed, which
    /// the leak tests expect right after the run ends. A participant keeps only its ledgers.
    var subject: AnyObject? { get }
}

/// One fault that took effect in a participant, timed on the participant's clock.
package struct ParticipantEvent: Sendable {
    /// Nanoseconds since the participant's clock's zero.
    package let elapsedNanoseconds: Int64
    /// The event's text (`fault trigger-duplicate users/u1`), built only when read.
    package let render: @Sendable () -> String

    /// An event at `elapsedNanoseconds` whose text `render` builds.
    package init(elapsedNanoseconds: Int64, render: @escaping @Sendable () -> String) {
        self.elapsedNanoseconds = elapsedNanoseconds
        self.render = render
    }
}
