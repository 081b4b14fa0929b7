import ArgumentParser
import Foundation
import Harness
import Sim

/// Options shared by `run` and `fuzz`, typed where they are read (`ArgumentValue`).
struct RunOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Scheduling strategy: random, pct:D (horizon measured per seed), pct:D:K, urw (uniform random walk), portfolio, nonpreemptive or fifo (default: random for run, portfolio for fuzz).", transform: ArgumentValue.strategy)
    var strategy: SchedulingStrategy?
    @Option(name: .long, parsing: .unconditional, help: "Timers due this close together are ordered by the strategy, e.g. 10ms (default: the backend's concurrency window; 0 orders by deadline).", transform: ArgumentValue.timingWindow)
    var timingWindow: TimingWindow?
    @Option(name: .long, parsing: .singleValue, help: "Scenario parameter name=value (repeatable).", transform: ArgumentValue.parameter)
    var param: [ParameterAssignment] = []
    @Option(name: .long, parsing: .unconditional, help: "Domain variant to run (default: the careful design).")
    var variant: String?
    @Option(name: .long, parsing: .unconditional, help: "Folder for reports.")
    var reportDir: String = "reports"
    @Option(name: .long, parsing: .singleValue, help: "Latency threshold such as placeBid.p99<2s (repeatable).", transform: ArgumentValue.threshold)
    var threshold: [Threshold] = []
    @Option(name: .long, parsing: .singleValue, help: "A fault knob's rate, name=probability, e.g. trigger-duplicate=0.05 (repeatable; `rehearse list` names the knobs).", transform: ArgumentValue.fault)
    var fault: [FaultAssignment] = []
    @Option(name: .long, parsing: .singleValue, help: "An outage process service:perHour:shortestSeconds:longestSeconds:severity[:down], e.g. sendgrid:2:60:3600:1 (repeatable).", transform: ArgumentValue.outage)
    var outage: [OutageDraw] = []
    @Option(name: .long, parsing: .unconditional, help: "Scheduler steps before a run ends as a step limit (a livelock): 1000 to 10000000000 (default 50000000).", transform: ArgumentValue.stepLimit)
    var maxSteps: UInt64?
    @Option(name: .long, parsing: .unconditional, help: "Virtual time before a run ends as a time limit, 1s to 100 years in whole seconds, e.g. 90m or 168h (default 720h, 30 days).", transform: ArgumentValue.virtualTimeLimit)
    var maxVirtualTime: Duration?
    @Flag(name: .long, help: "Tolerate work from real threads (wait for it) instead of ending the run as an escape.")
    var noStrict = false
    @Option(name: .long, parsing: .unconditional, help: "Wall time one job may run before a watchdog fails the run, naming it (a loop without an await; past 2 stuck threads the process ends, exit 70): 1s to 1h, or off (default 60s).", transform: ArgumentValue.stuckJobLimit)
    var stuckJobLimit: StuckJobLimit?
    @Flag(name: .long, help: "Also write trace.jsonl.")
    var trace = false
    @Flag(name: .long, help: "Print only the verdict line.")
    var quiet = false

    /// The limits the flags give (each bounded where it is parsed).
    func limits() -> RunLimits {
        var limits = RunLimits.standard
        if let maxSteps { limits.maxSteps = maxSteps }
        if let maxVirtualTime { limits.maxVirtualNanoseconds = UInt64(maxVirtualTime.components.seconds) * 1_000_000_000 }
        limits.strict = !noStrict
        if let stuckJobLimit { limits.stuckJobSeconds = stuckJobLimit.seconds }
        return limits
    }

    /// The request for `scenario` at `seed`, validated against the scenario (bad input → exit 2
    /// with one line), with the run prepared once.
    func prepared(scenario: String, seed: UInt64, defaultStrategy: SchedulingStrategy = .random) throws -> PreparedRun {
        try ReportDirectory.check(reportDir)
        var request = RunRequest(
            scenario: scenario, seed: seed, strategy: strategy ?? defaultStrategy, parameters: ParameterAssignment.values(param),
            variant: variant, thresholds: threshold, recordsTrace: trace, gitCommit: Fingerprint.current.commit,
            timingWindowNanoseconds: timingWindow?.nanoseconds)
        if !fault.isEmpty || !outage.isEmpty { request.world = World(faults: FaultAssignment.rates(fault), outages: outage) }
        request.limits = limits()
        do { return try ScenarioRunner.prepare(request) } catch { throw InputError.fail(error.description) }
    }
}
