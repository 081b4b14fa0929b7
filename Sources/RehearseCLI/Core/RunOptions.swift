import ArgumentParser
import Foundation
import Harness
import Sim

/// Options shared by `run` and `fuzz`.
struct RunOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Scheduling strategy: random, pct:D (horizon measured per seed), pct:D:K, urw (uniform random walk), portfolio, nonpreemptive or fifo (default: random for run, portfolio for fuzz).")
    var strategy: String?
    @Option(name: .long, parsing: .unconditional, help: "Timers due this close together are ordered by the strategy, e.g. 10ms (default: the backend's concurrency window; 0 orders by deadline).")
    var timingWindow: String?
    @Option(name: .long, parsing: .singleValue, help: "Scenario parameter name=value (repeatable).")
    var param: [String] = []
    @Option(name: .long, parsing: .unconditional, help: "Domain variant to run (default: the careful design).")
    var variant: String?
    @Option(name: .long, parsing: .unconditional, help: "Folder for reports.")
    var reportDir: String = "reports"
    @Option(name: .long, parsing: .singleValue, help: "Latency threshold such as placeBid.p99<2s (repeatable).")
    var threshold: [String] = []
    @Flag(name: .long, help: "Also write trace.jsonl.")
    var trace = false
    @Flag(name: .long, help: "Print only the verdict line.")
    var quiet = false

    /// The request for `scenario` at `seed`, validated (bad input → exit 2 with one line).
    func request(scenario: String, seed: UInt64, defaultStrategy: SchedulingStrategy = .random) throws -> RunRequest {
        try ReportDirectory.check(reportDir)
        let parsedStrategy: SchedulingStrategy
        if let strategy {
            guard let parsed = SchedulingStrategy(parsing: strategy) else {
                throw InputError.fail(ScenarioError.malformedStrategy(strategy).description)
            }
            parsedStrategy = parsed
        } else {
            parsedStrategy = defaultStrategy
        }
        var window: UInt64?
        if let timingWindow {
            guard let nanoseconds = DurationText.nanoseconds(timingWindow), nanoseconds <= RunOptions.maxTimingWindowNanoseconds else {
                throw InputError.fail("--timing-window '\(timingWindow)' is not a duration from 0 to 60s such as 10ms, 250us or 0")
            }
            window = nanoseconds
        }
        do {
            let request = RunRequest(
                scenario: scenario, seed: seed, strategy: parsedStrategy, parameters: try ScenarioParameters.parsePairs(param),
                variant: variant, thresholds: try threshold.map { (text: String) throws(ScenarioError) in try Threshold(parsing: text) },
                recordsTrace: trace, gitCommit: Fingerprint.current.commit, timingWindowNanoseconds: window)
            _ = try ScenarioRunner.prepare(request)
            return request
        } catch let error {
            throw InputError.fail(error.description)
        }
    }
}

extension RunOptions {
    /// The widest timing window accepted (a minute: wider would reorder unrelated events).
    static let maxTimingWindowNanoseconds: UInt64 = 60_000_000_000
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
