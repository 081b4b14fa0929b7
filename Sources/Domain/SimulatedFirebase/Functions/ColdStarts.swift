/// Cold starts of Cloud Functions invocations (MODEL_RULES §20; docs/domain.md, "Function
/// instances"): with `coldStartProbability` an invocation lands on a new instance (a scale-out,
/// an instance recycled while idle) and waits `coldStartMin`–`coldStartMax` before its body runs.
import Synchronization

final class ColdStarts: Sendable {
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let ledger: FaultLedger
    private let random: SharedRandom
    /// Per function: the instance that serves it now (0 until its first cold start).
    private let instances = Mutex<[String: Int]>([:])

    init(env: DomainEnvironment, faults: BackendFaults, ledger: FaultLedger) {
        self.env = env
        self.faults = faults
        self.ledger = ledger
        random = SharedRandom(env, stream: "functions.cold-start")
    }

    /// One invocation of `function` starts: a chance of a cold start on a new instance, paid
    /// here. Returns the instance that runs it.
    @discardableResult
    func begin(_ function: String) async -> Int {
        let probability = faults.coldStartProbability
        let current = instances.withLock { $0[function] ?? 0 }
        guard probability > 0 else { return current }
        ledger.opportunity(.coldStart, probability: probability)
        guard random.chance(probability) else { return current }
        ledger.observe(.coldStart, subject: function)
        let instance = instances.withLock { instances in
            let next = (instances[function] ?? 0) + 1
            instances[function] = next
            return next
        }
        let wait = faults.coldStartMin + random.duration(upTo: faults.coldStartMax - faults.coldStartMin)
        try? await env.clock.sleep(for: wait)
        return instance
    }
}
