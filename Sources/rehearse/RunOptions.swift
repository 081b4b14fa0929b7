import ArgumentParser
import Foundation
import Scenarios
import Sim

/// Options shared by `run` and `fuzz`.
struct RunOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: "Scheduling strategy: fifo, random, pct:D or pct:D:K.")
    var strategy: String = "random"
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
    func request(scenario: String, seed: UInt64) throws -> RunRequest {
        try ReportDirectory.check(reportDir)
        guard let parsedStrategy = SchedulingStrategy(parsing: strategy) else {
            throw InputError.fail(ScenarioError.malformedStrategy(strategy).description)
        }
        do {
            let request = RunRequest(
                scenario: scenario, seed: seed, strategy: parsedStrategy, parameters: try ScenarioParameters.parsePairs(param),
                variant: variant, thresholds: try threshold.map { (text: String) throws(ScenarioError) in try Threshold(parsing: text) },
                recordsTrace: trace, gitCommit: Fingerprint.current.commit)
            _ = try ScenarioRunner.prepare(request)
            return request
        } catch let error {
            throw InputError.fail(error.description)
        }
    }
}

/// The git commit of the working directory, from REHEARSE_GIT_COMMIT or `git rev-parse`.
