import SimulatedFirebase

/// A messenger that records every message in send order (the outbox a run's report is built from).
public actor SafeNSoundOutbox: SafeNSoundMessenger, DomainActor {
    /// The outbox actor's injected executor.
    public nonisolated let executor: any SerialExecutor
    private var sent: [SafeNSoundMessage] = []

    /// An empty outbox on `environment`'s executors.
    public init(environment: DomainEnvironment) {
        self.executor = environment.makeExecutor(label: "safensound/outbox")
    }

    /// Keeps the message (always succeeds).
    public func deliver(_ message: SafeNSoundMessage) async throws(SafeNSoundError) {
        sent.append(message)
    }

    /// Every message delivered so far, in delivery order.
    public func messages() -> [SafeNSoundMessage] { sent }
}
