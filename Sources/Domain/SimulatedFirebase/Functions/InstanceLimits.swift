import Synchronization

/// Each function's maximum instance count (MODEL_RULES §21; docs/domain.md, "Function
/// instances"). An instance runs one invocation at a time (1st gen), so a function at its limit
/// has that many invocations in flight: the next one queues, first come first served, until one
/// ends (`instance-queue-wait`); a callable gives up after `callableQueuePatience` and answers
/// RESOURCE_EXHAUSTED (HTTP 429). In a surge the platform may start an instance past the limit for
/// a while (documented: "Cloud Functions may, for a short period of time, create more instances
/// than the specified max instances limit"): with `instanceOvershootProbability` a queued
/// invocation starts at once on one (`instance-overshoot`).
final class InstanceLimits: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Bool, Never>
    }
    private struct State {
        var limits: [String: Int] = [:]
        var running: [String: Int] = [:]
        var queues: [String: [Waiter]] = [:]
        var nextWaiter = 0

        /// The instances `function` may run at once (`fallback`: the platform's default).
        func limit(_ function: String, fallback: Int) -> Int { limits[function] ?? fallback }
    }
    private let state = Mutex(State())
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let ledger: FaultLedger
    private let tracker: TaskTracker
    private let random: SharedRandom

    init(env: DomainEnvironment, faults: BackendFaults, ledger: FaultLedger, tracker: TaskTracker) {
        self.env = env
        self.faults = faults
        self.ledger = ledger
        self.tracker = tracker
        random = SharedRandom(env, stream: "functions.instances")
    }

    /// Records `function`'s deploy-time `maxInstances` (nil: the platform's default).
    func deploy(_ function: String, maxInstances: Int?) {
        guard let maxInstances else { return }
        state.withLock { $0.limits[function] = maxInstances }
    }

    /// Admits one invocation of `function`: at once below its limit; else it queues until an
    /// instance frees (nil `patience`), or throws RESOURCE_EXHAUSTED after `patience` if none has.
    func admit(_ function: String, patience: Duration?) async throws(BackendError) {
        let fallback = faults.functionMaxInstances
        // nil: admitted; else the limit it found reached.
        let limit = state.withLock { state -> Int? in
            let limit = state.limit(function, fallback: fallback)
            guard state.running[function, default: 0] < limit else { return limit }
            state.running[function, default: 0] += 1
            return nil
        }
        guard let limit else { return }
        let overshoot = faults.instanceOvershootProbability
        if overshoot > 0 {
            ledger.opportunity(.instanceOvershoot, probability: overshoot)
            if random.chance(overshoot) {
                ledger.observe(.instanceOvershoot, subject: function)
                state.withLock { $0.running[function, default: 0] += 1 }
                return
            }
        }
        ledger.observe(.instanceQueueWait, subject: function)
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        if let patience { giveUp(function, waiter: id, after: patience) }
        let served = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            state.withLock { $0.queues[function, default: []].append(Waiter(id: id, continuation: continuation)) }
        }
        guard served else {
            throw .resourceExhausted("\(function): every one of its \(limit) instances stayed busy for \(patience ?? .zero) (HTTP 429)")
        }
    }

    /// One invocation of `function` ended: the first queued one, if any, takes its instance.
    func release(_ function: String) {
        let next = state.withLock { state -> Waiter? in
            let running = state.running[function, default: 0]
            precondition(running > 0, "\(function): an invocation ended that never started")
            guard running <= state.limit(function, fallback: faults.functionMaxInstances), var queue = state.queues[function], !queue.isEmpty else {
                state.running[function] = running - 1
                return nil
            }
            let waiter = queue.removeFirst()
            state.queues[function] = queue
            return waiter
        }
        next?.continuation.resume(returning: true)
    }

    /// After `patience`, the waiter `id` leaves the queue unserved if it is still in it.
    private func giveUp(_ function: String, waiter id: Int, after patience: Duration) {
        let clock = env.clock
        tracker.spawn { [self] in
            try? await clock.sleep(for: patience)
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.queues[function]?.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queues[function]?.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }
}
