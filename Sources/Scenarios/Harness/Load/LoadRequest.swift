/// One `rehearse load` run: which profile, which executor, on which clock.
package struct LoadRequest: Sendable, Hashable {
    /// Which clock the run is on.
    package enum Clock: String, Sendable, Hashable, CaseIterable {
        /// The real Swift runtime and `ContinuousClock`: wall-clock latency, not reproducible.
        case wall
        /// The simulator (one thread, virtual time, seeded): the same report for the same seed.
        case virtual
    }

    /// The scenario whose load profile runs.
    package var scenario: String
    /// How iterations arrive (open) or loop (closed).
    package var executor: LoadExecutor
    /// Closed model: pause after each iteration.
    package var thinkTime: Duration
    /// The real runtime's clock or the simulator's.
    package var clock: Clock
    /// The design under load: nil for the careful one, or a variant name of the scenario.
    package var variant: String?
    /// Latency thresholds the run must meet.
    package var thresholds: [Threshold]
    /// Seeds the backend's faults and the profile's draws.
    package var seed: UInt64
    /// Open model: k6's `maxVUs`, the bound on iterations running at once; an arrival beyond it is
    /// dropped and counted.
    package var maxVUs: Int
    /// After the executor's duration, how long iterations still running may finish before they
    /// are abandoned (k6's `gracefulStop`).
    package var gracefulStop: Duration
    /// The commit to record in the report's build fingerprint.
    package var gitCommit: String?
    /// The command line, for the report (its replay command).
    package var commandLine: String
    /// The real server's kind (`emulator`) when the run drives one (`--backend`); nil for the
    /// simulated backend. It names the run's folder in place of the clock.
    package var backend: String?
    /// The share of the load this process runs (`--shard i/n`): every n-th arrival from the i-th,
    /// or every n-th virtual user; nil for all of it.
    package var shard: LoadShard?

    /// A load run of `scenario` under `executor`; the rest has k6's defaults.
    package init(
        scenario: String, executor: LoadExecutor, thinkTime: Duration = .zero, clock: Clock = .wall, variant: String? = nil,
        thresholds: [Threshold] = [], seed: UInt64 = 1, maxVUs: Int = 10_000, gracefulStop: Duration = .seconds(60),
        gitCommit: String? = nil, commandLine: String = ""
    ) {
        self.scenario = scenario
        self.executor = executor
        self.thinkTime = thinkTime
        self.clock = clock
        self.variant = variant
        self.thresholds = thresholds
        self.seed = seed
        self.maxVUs = maxVUs
        self.gracefulStop = gracefulStop
        self.gitCommit = gitCommit
        self.commandLine = commandLine
    }

    /// The executor with its think time, as the report and the console name it.
    package var modelDescription: String {
        executor.isOpen ? "\(executor) max-vus=\(maxVUs)" : "\(executor) think-time=\(LoadStage.format(thinkTime))"
    }

    /// Folder name of the run: `auction-race-load-virtual-constant-arrival-rate-500ps`,
    /// `like-storm-load-wall-constant-vus-4vus`, `seat-contention-load-emulator-…` against a real
    /// server, with `-<variant>` for a variant.
    package var runId: String {
        var id = "\(scenario)-load-\(backend ?? clock.rawValue)-\(executor.name)"
        switch executor {
        case .constantArrivalRate(let rate, _): id += "-\(LoadStage.format(rate))ps"
        case .rampingArrivalRate(let start, let stages): id += "-\(LoadStage.format(start))ps-to-\(LoadStage.format(stages.last?.target ?? start))ps"
        case .constantVUs(let vus, _): id += "-\(vus)vus"
        case .rampingVUs(let start, let stages): id += "-\(start)vus-to-\(Int(stages.last?.target ?? Double(start)))vus"
        }
        if let variant { id += "-\(variant)" }
        if let shard { id += "-shard-\(shard.index)-of-\(shard.count)" }
        return id
    }
}

/// One share of a load run (`--shard i/n`, 0 ≤ i < n).
package struct LoadShard: Sendable, Hashable {
    /// Which share, from 0.
    package let index: Int
    /// How many shares the load is split into.
    package let count: Int

    /// Share `index` of `count`.
    package init(index: Int, count: Int) {
        precondition(count >= 1 && index >= 0 && index < count, "shard \(index)/\(count)")
        self.index = index
        self.count = count
    }
}
