import Synchronization

/// Drives one set-up workload under an executor on its world's clock. The same code
/// runs on the real runtime (`ContinuousClock`, wall time) and on the simulator (virtual time):
/// only the environment differs. Nothing is kept per arrival: each iteration is an unstructured
/// task that is released when it ends, and the measurements are `LoadMetrics`' fixed-size ones.
struct LoadDriver: Sendable {
    let request: LoadRequest
    let users: Int
    let workload: LoadProfile.Workload
    let clock: RunClock
    let metrics: LoadMetrics
    /// The executor iterations and VUs prefer (the world's task executor).
    let taskExecutor: (any TaskExecutor)?
    /// Raised to end the load early (its server died); nil: it runs to the end.
    var stop: LoadStop? = nil
    /// How long what is running may drain after an early stop.
    static let stoppedDrainNanoseconds: UInt64 = 5_000_000_000

    /// Tasks (open-model iterations or closed-model VUs) still running.
    private final class Running: Sendable {
        let count = Mutex(0)
        let nextIndex = Mutex(0)
    }

    /// Runs the executor, then waits up to the graceful stop for what is still running; returns
    /// the elapsed time (ns from the start until the last iteration ended, or the stop).
    func run() async -> UInt64 {
        let origin = clock.elapsedNanoseconds()
        let now: @Sendable () -> UInt64 = { [clock] in UInt64(max(0, clock.elapsedNanoseconds() - origin)) }
        let running = Running()
        let end = LoadExecutor.nanoseconds(request.executor.duration)
        if request.executor.isOpen {
            var arrivals = LoadArrivals(request.executor)
            while let due = arrivals.next(), due < end {
                let index = arrivals.index - 1
                // A shard takes every n-th arrival of the whole schedule: the shards' union is it.
                if let shard = request.shard, index % shard.count != shard.index { continue }
                await sleep(until: due, now)
                if stop?.isRaised == true { break }
                if metrics.inFlight >= request.maxVUs {
                    metrics.dropped()
                    continue
                }
                metrics.started()
                running.count.withLock { $0 += 1 }
                Task(executorPreference: taskExecutor) { [workload, metrics, users] in
                    let recorder = LoadProfile.LoadRecorder(intendedStartNanoseconds: due, now: now, metrics: metrics)
                    await workload.iterate(index, index % users, recorder)
                    metrics.completed(at: now())
                    running.count.withLock { $0 -= 1 }
                }
            }
        } else {
            let schedule = LoadVUSchedule(request.executor)
            for vu in 0..<request.executor.peakVUs where request.shard.map({ vu % $0.count == $0.index }) ?? true {
                running.count.withLock { $0 += 1 }
                Task(executorPreference: taskExecutor) { [self] in
                    await virtualUser(vu, schedule: schedule, end: end, now: now, running: running)
                    running.count.withLock { $0 -= 1 }
                }
            }
            if let stop {
                while now() < end && !stop.isRaised { await sleep(until: min(end, now() + 100_000_000), now) }
            } else {
                await sleep(until: end, now)
            }
        }
        let drain = stop?.isRaised == true ? Self.stoppedDrainNanoseconds : LoadExecutor.nanoseconds(request.gracefulStop)
        let deadline = max(stop?.isRaised == true ? 0 : end, now()) + drain
        while running.count.withLock({ $0 }) > 0 && now() < deadline {
            await sleep(until: min(deadline, now() + 5_000_000), now)
        }
        return metrics.inFlight > 0 ? now() : max(metrics.snapshot.lastEnd, min(now(), end))
    }

    /// One closed-model VU: while the schedule has it active, iteration → think time.
    private func virtualUser(_ vu: Int, schedule: LoadVUSchedule, end: UInt64, now: @escaping @Sendable () -> UInt64, running: Running) async {
        var time = now()
        while time < end && stop?.isRaised != true {
            guard let active = schedule.activation(of: vu, from: time), active < end else { return }
            if active > time { await sleep(until: active, now) }
            let local = running.nextIndex.withLock { index in
                defer { index += 1 }
                return index
            }
            let index = request.shard.map { local * $0.count + $0.index } ?? local  // distinct over the shards
            metrics.started()
            let recorder = LoadProfile.LoadRecorder(intendedStartNanoseconds: now(), now: now, metrics: metrics)
            await workload.iterate(index, vu % users, recorder)
            metrics.completed(at: now())
            if request.thinkTime > .zero && now() < end { try? await clock.sleep(for: request.thinkTime) }
            time = now()
        }
    }

    private func sleep(until time: UInt64, _ now: @Sendable () -> UInt64) async {
        let current = now()
        guard time > current else { return }
        try? await clock.sleep(for: .nanoseconds(Int64(time - current)))
    }
}
