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
    @Option(name: .long, parsing: .unconditional, help: "Scheduler steps before a run ends as a step limit (a livelock), default 50000000.")
    var maxSteps: UInt64?
    @Option(name: .long, parsing: .unconditional, help: "Virtual time before a run ends as a time limit, e.g. 90m or 168h (default 720h, 30 days).", transform: ArgumentValue.duration)
    var maxVirtualTime: Duration?
    @Flag(name: .long, help: "Tolerate work from real threads (wait for it) instead of ending the run as an escape.")
    var noStrict = false
    @Option(name: .long, parsing: .unconditional, help: "Wall time one job may run before a watchdog stops the process with exit 70, naming it (a loop without an await): 1s to 1h, or off (default 60s).")
    var stuckJobLimit: String?
    @Flag(name: .long, help: "Also write trace.jsonl.")
    var trace = false
    @Flag(name: .long, help: "Print only the verdict line.")
    var quiet = false

    /// The limits the flags give (bounded: a step limit of at least 1,000, a virtual time of at
    /// least a second, a stuck-job limit of 1 s to 1 h).
    func limits() throws -> RunLimits {
        var limits = RunLimits.standard
        if let maxSteps {
            guard maxSteps >= 1_000 && maxSteps <= 10_000_000_000 else { throw InputError.fail("--max-steps \(maxSteps) must be in 1000...10000000000") }
            limits.maxSteps = maxSteps
        }
        if let maxVirtualTime {
            let nanoseconds = maxVirtualTime.components.seconds
            guard nanoseconds >= 1 && nanoseconds <= 100 * 365 * 86_400 else { throw InputError.fail("--max-virtual-time \(maxVirtualTime) must be from 1s to 100 years") }
            limits.maxVirtualNanoseconds = UInt64(nanoseconds) * 1_000_000_000
        }
        limits.strict = !noStrict
        if let stuckJobLimit {
            if stuckJobLimit == "off" {
                limits.stuckJobSeconds = nil
            } else {
                guard let limit = LoadOptions.parseDuration(stuckJobLimit), (1...3_600).contains(limit.components.seconds) else {
                    throw InputError.fail("--stuck-job-limit \(stuckJobLimit) must be a duration from 1s to 1h, or off")
                }
                limits.stuckJobSeconds = Int(limit.components.seconds)
            }
        }
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
        request.limits = try limits()
        do { return try ScenarioRunner.prepare(request) } catch { throw InputError.fail(error.description) }
    }
}

/// Parses a duration such as `10ms`, `250us`, `1.5s`, `2m` or `0` into nanoseconds (nil when
/// malformed, negative or beyond UInt64).
enum DurationText {
    static func nanoseconds(_ text: String) -> UInt64? {
        let units: [(suffix: String, nanoseconds: Double)] = [("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9)]
        if text == "0" { return 0 }
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let value = Double(number) else { return nil }
            let total = value * unit.nanoseconds
            guard total.isFinite, total >= 0, total < 1.8e19 else { return nil }
            return UInt64(total.rounded())
        }
        return nil
    }
}

/// The git commit of the working directory, from REHEARSE_GIT_COMMIT or `git rev-parse`.
