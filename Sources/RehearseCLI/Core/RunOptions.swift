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
    @Flag(name: .long, help: "Also write trace.jsonl.")
    var trace = false
    @Flag(name: .long, help: "Print only the verdict line.")
    var quiet = false

    /// The request for `scenario` at `seed`, validated against the scenario (bad input → exit 2
    /// with one line), with the run prepared once.
    func prepared(scenario: String, seed: UInt64, defaultStrategy: SchedulingStrategy = .random) throws -> PreparedRun {
        try ReportDirectory.check(reportDir)
        var request = RunRequest(
            scenario: scenario, seed: seed, strategy: strategy ?? defaultStrategy, parameters: ParameterAssignment.values(param),
            variant: variant, thresholds: threshold, recordsTrace: trace, gitCommit: Fingerprint.current.commit,
            timingWindowNanoseconds: timingWindow?.nanoseconds)
        if !fault.isEmpty || !outage.isEmpty { request.world = World(faults: FaultAssignment.rates(fault), outages: outage) }
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
