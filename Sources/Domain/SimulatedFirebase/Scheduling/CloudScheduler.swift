import Synchronization

/// Cloud Scheduler on the injected clock: runs every registered scheduled function once per
/// period, at least once per tick (MODEL_RULES §13–14): each run starts 0–`scheduleStartJitterMax`
/// late, a tick can run twice (`scheduleDuplicateDelay` apart), and a run that outlives
/// `scheduleDeadline` may be retried while it still runs (overlap).
public actor CloudScheduler: DomainActor {
    /// The scheduler actor's injected executor.
    public nonisolated let executor: any SerialExecutor
    private let env: DomainEnvironment
    private let faults: BackendFaults
    private let functions: Functions
    private let tracker: TaskTracker
    private let random: SharedRandom
    private let ledger: FaultLedger
    private let coverage: CoverageLedger
    private var started = false
    private var stopped = false
    /// The tick loops `start` spawned, one per job.
    private var loops: [Task<Void, Never>] = []

    init(env: DomainEnvironment, faults: BackendFaults, functions: Functions, tracker: TaskTracker, ledger: FaultLedger, coverage: CoverageLedger) {
        self.ledger = ledger
        self.coverage = coverage
        self.executor = env.makeExecutor(label: "scheduler")
        self.env = env
        self.faults = faults
        self.functions = functions
        self.tracker = tracker
        self.random = SharedRandom(env, stream: "scheduler")
    }

    /// Starts ticking every registered job: first tick at `firstTick` (default: now + period),
    /// last tick at or before `until` (a bound keeps `waitUntilIdle` meaningful).
    public func start(firstTick: Timestamp? = nil, until: Timestamp) {
        precondition(!started, "scheduler started twice")
        started = true
        for job in functions.scheduledJobs {
            let first = firstTick ?? env.clock.now + job.period
            loops.append(tracker.spawn { [self] in await tickLoop(job, first: first, until: until) })
        }
    }

    /// Stops issuing new ticks at once, waking the loops waiting for their next one (runs in
    /// progress finish), so `Backend.waitUntilIdle` returns when they do.
    public func stop() {
        stopped = true
        for loop in loops { loop.cancel() }
    }

    private func tickLoop(_ job: Functions.ScheduledJob, first: Timestamp, until: Timestamp) async {
        var tick = first
        while tick <= until {
            try? await env.clock.sleep(until: tick)
            if stopped { return }
            launch(job, tick: tick, attempt: 1, isDuplicate: false, delay: random.duration(upTo: faults.scheduleStartJitterMax))
            ledger.opportunity(.scheduleDuplicate, probability: faults.scheduleDuplicateProbability)
            if random.chance(faults.scheduleDuplicateProbability) {
                launch(job, tick: tick, attempt: 1, isDuplicate: true,
                       delay: random.duration(upTo: faults.scheduleStartJitterMax) + faults.scheduleDuplicateDelay)
            }
            tick = tick + job.period
        }
    }

    private nonisolated func launch(_ job: Functions.ScheduledJob, tick: Timestamp, attempt: Int, isDuplicate: Bool, delay: Duration) {
        let run = ScheduledRun(name: job.name, scheduledTime: tick, attempt: attempt, isDuplicate: isDuplicate)
        let finished = RunFlag()
        let env = env
        let ledger = ledger
        let coverage = coverage
        let coldStarts = functions.coldStarts
        let invocations = functions.invocations
        tracker.spawn {
            try? await env.clock.sleep(for: delay)
            do {
                try await invocations.admitted(job.name) {
                    await coldStarts.begin(job.name)
                    if isDuplicate && attempt == 1 { ledger.observe(.scheduleDuplicate, subject: "\(job.name) tick \(tick)") }
                    if attempt > 1 { ledger.observe(.scheduleOverlap, subject: "\(job.name) tick \(tick)") }
                    coverage.count(.scheduledJob, job.name)
                    try await invocations.run(job.name, target: Self.target(tick), timeout: job.timeout) { try await job.handler(run) }
                }
            } catch {
                coverage.countFailure(.scheduledJob, job.name)
            }
            finished.value.store(true, ordering: .relaxed)
        }
        // Deadline watcher: only when overlap is possible, so a disabled knob costs no timer.
        guard attempt == 1, faults.scheduleOverlapRetryProbability > 0 else { return }
        let deadline = faults.scheduleDeadline
        tracker.spawn { [self] in
            try? await env.clock.sleep(for: delay + deadline)
            guard !finished.value.load(ordering: .relaxed) else { return }
            ledger.opportunity(.scheduleOverlap, probability: faults.scheduleOverlapRetryProbability)
            if random.chance(faults.scheduleOverlapRetryProbability) {
                launch(job, tick: tick, attempt: 2, isDuplicate: isDuplicate, delay: .zero)
            }
        }
    }
}

extension CloudScheduler {
    /// How the fault ledger names the run of one tick when it is terminated: a function-crash or
    /// function-timeout event's subject is "`job` tick `tick`".
    public static func target(_ tick: Timestamp) -> String { "tick \(tick)" }
}

/// Whether one scheduled run has finished (shared by the run and its deadline watcher).
final class RunFlag: Sendable {
    let value = Atomic<Bool>(false)
}
