import Harness
import Sim
import Testing

/// Swift Testing helpers: sweep seeds × strategies over a closure or a `Scenario` on the
/// simulator; the first failure is shrunk and fails the test with its seed, strategy, shrunk
/// decisions and a replay call to paste. Deterministic: seeds run in order, each strategy in
/// order, on the calling thread, so the same test finds the same failure every time.
///
/// ```swift
/// @Test func transfersKeepMoney() {
///     Rehearsal.sweep(seeds: 0..<200) {
///         let bank = Bank()                       // actors with SimulatedExecutor (or SimActor)
///         async let a: Void = bank.transfer(50, from: "alice", to: "bob")
///         async let b: Void = bank.transfer(80, from: "alice", to: "carol")
///         _ = await (a, b)
///         try Rehearsal.check(await bank.total == 100, "money created or lost")
///     }
/// }
/// ```
public enum Rehearsal {
    /// Random, then PCT with one and two preemptions (bugs of depth 2 and 3).
    public static let defaultStrategies: [SchedulingStrategy] = [.random, .pct(depth: 2, horizon: nil), .pct(depth: 3, horizon: nil)]

    /// Runs a shrink may spend (decisions, and a scenario's parameters).
    public static let defaultMaxShrinkRuns = 300

    /// The timing window of closure sweeps (the scenarios' default: timers due within 10 ms of
    /// each other are concurrent and the strategy orders them).
    public static let defaultTimingWindowNanoseconds = RunRequest.defaultTimingWindowNanoseconds

    /// Fails the running simulation with `message` unless `condition` holds (the run ends there).
    public static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(RehearsalCheckFailure) {
        if !condition { throw RehearsalCheckFailure(message()) }
    }

    // MARK: Closures

    /// Runs `body` as the root task of a simulation for every seed × strategy until one fails
    /// (the body throws, deadlocks, escapes or hits a limit); shrinks that failure's decisions,
    /// records a test issue describing it and returns it (nil: every run passed).
    @discardableResult
    public static func sweep(
        seeds: Range<UInt64> = 0..<100,
        strategies: [SchedulingStrategy] = defaultStrategies,
        timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds,
        maxShrinkRuns: Int = defaultMaxShrinkRuns,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        for seed in seeds {
            for strategy in strategies {
                let configuration = SimulationConfiguration(
                    seed: seed, strategy: strategy, timingWindowNanoseconds: timingWindowNanoseconds)
                let result = Simulation.run(configuration, body)
                guard !result.outcome.isSuccess else { continue }
                let failure = shrink(result, maxRuns: maxShrinkRuns, body)
                Issue.record(Comment(rawValue: failure.description), sourceLocation: location)
                return failure
            }
        }
        return nil
    }

    /// Runs `body` once, replaying `decisions` at `seed` (what a sweep's failure prints); records
    /// a test issue when the run fails (so a test that reproduces a bug fails until it is fixed)
    /// or when the log no longer fits the body. Returns the run.
    @discardableResult
    public static func replay(
        seed: UInt64, decisions: [UInt32], timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> SimulationResult<Void>? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        let configuration = SimulationConfiguration(
            seed: seed, strategy: .replay(decisions: decisions), timingWindowNanoseconds: timingWindowNanoseconds)
        let result = Simulation.run(configuration, body)
        if !result.outcome.isSuccess {
            Issue.record(Comment(rawValue: "replayed seed \(seed): \(result.outcome)"), sourceLocation: location)
        }
        if let divergence = result.replayDivergence {
            Issue.record(Comment(rawValue: "the decisions log does not fit this body any more: \(divergence)"), sourceLocation: location)
        }
        return result
    }

    /// Shrinks a failing closure run's decisions (keeping the outcome's kind) and describes it.
    static func shrink(
        _ failed: SimulationResult<Void>, maxRuns: Int, _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure {
        let kind = failed.outcome.kind
        let outcome = DecisionShrinker.shrink(
            failed.configuration, decisions: failed.decisions, maxRuns: maxRuns,
            stillFails: { (result: SimulationResult<Void>) in result.outcome.kind == kind }, body)
        // The shrunk log must reproduce; if it does not, the unshrunk one does (same seed, same binary).
        var decisions = outcome.decisions
        var replay = failed.configuration
        replay.strategy = .replay(decisions: decisions)
        var final = Simulation.run(replay, body)
        if final.outcome.kind != kind {
            decisions = failed.decisions
            replay.strategy = .replay(decisions: decisions)
            final = Simulation.run(replay, body)
        }
        let window = failed.configuration.timingWindowNanoseconds
        let windowArgument = window == defaultTimingWindowNanoseconds ? "" : ", timingWindowNanoseconds: \(window)"
        return RehearsalFailure(
            seed: failed.configuration.seed, strategy: failed.configuration.strategy.description,
            timingWindowNanoseconds: window, message: final.outcome.description, decisions: decisions,
            preemptionsBefore: DecisionShrinker.preemptions(failed.decisions),
            preemptionsAfter: DecisionShrinker.preemptions(decisions),
            replayCall: "Rehearsal.replay(seed: \(failed.configuration.seed), decisions: \(RehearsalFailure.literal(decisions))\(windowArgument)) { … }")
    }

    // MARK: Scenarios

    /// Runs `scenario` through the same runner as `rehearse run` for every seed × strategy until
    /// one fails (a violated Always/Eventually check, a kernel failure, a missed threshold);
    /// shrinks it as `rehearse shrink` does (parameters toward their minimums, then decisions),
    /// records a test issue and returns it. Registers the scenario (`ScenarioRegistry.register`).
    @discardableResult
    public static func sweep<S: Scenario>(
        _ scenario: S,
        seeds: Range<UInt64> = 0..<100,
        strategies: [SchedulingStrategy] = defaultStrategies,
        parameters: [String: Int] = [:],
        variant: String? = nil,
        thresholds: [String] = [],
        maxShrinkRuns: Int = defaultMaxShrinkRuns,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        do throws(ScenarioError) {
            try ScenarioRegistry.register([scenario])
            let parsedThresholds = try thresholds.map { (text: String) throws(ScenarioError) in try Threshold(parsing: text) }
            for seed in seeds {
                for strategy in strategies {
                    let request = RunRequest(
                        scenario: scenario.name, seed: seed, strategy: strategy, parameters: parameters, variant: variant,
                        thresholds: parsedThresholds)
                    let report = try ScenarioRunner.execute(request).report
                    guard !report.passed else { continue }
                    let failure = try shrink(scenario, request, failed: report, maxRuns: maxShrinkRuns)
                    Issue.record(Comment(rawValue: failure.description), sourceLocation: location)
                    return failure
                }
            }
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
        }
        return nil
    }

    /// Replays one run of `scenario` (what a scenario sweep's failure prints) through the runner;
    /// records a test issue when it fails. Returns its report.
    @discardableResult
    public static func replay<S: Scenario>(
        _ scenario: S, seed: UInt64, strategy: String = "random", parameters: [String: Int] = [:], variant: String? = nil,
        decisions: [UInt32],
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RunReport? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        do throws(ScenarioError) {
            try ScenarioRegistry.register([scenario])
            guard let parsed = SchedulingStrategy(parsing: strategy) else { throw .malformedStrategy(strategy) }
            let request = RunRequest(
                scenario: scenario.name, seed: seed, strategy: parsed, parameters: parameters, variant: variant, decisions: decisions)
            let execution = try ScenarioRunner.execute(request)
            if !execution.report.passed {
                let message = execution.report.failure?.message ?? execution.report.outcomeDetail
                Issue.record(Comment(rawValue: "replayed \(scenario.name) seed \(seed): \(message)"), sourceLocation: location)
            }
            if let divergence = execution.replayDivergence {
                Issue.record(Comment(rawValue: "the decisions log does not fit this scenario any more: \(divergence)"), sourceLocation: location)
            }
            return execution.report
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
            return nil
        }
    }

    /// Shrinks a failing scenario run with `FailureShrinker` and describes the result.
    static func shrink<S: Scenario>(
        _ scenario: S, _ request: RunRequest, failed: RunReport, maxRuns: Int
    ) throws(ScenarioError) -> RehearsalFailure {
        let shrunk = try FailureShrinker.shrink(request, maxRuns: maxRuns)
        let report = shrunk.execution.report
        let artifact = shrunk.artifact
        var arguments = ["seed: \(report.seed)", "strategy: \"\(report.strategy)\""]
        let changed = shrunk.request.parameters.keys.sorted().filter { shrunk.request.parameters[$0] != nil }
        if !changed.isEmpty {
            arguments.append("parameters: [" + changed.map { "\"\($0)\": \(shrunk.request.parameters[$0]!)" }.joined(separator: ", ") + "]")
        }
        if let variant = report.variant { arguments.append("variant: \"\(variant)\"") }
        arguments.append("decisions: \(RehearsalFailure.literal(artifact.decisions))")
        return RehearsalFailure(
            seed: report.seed, strategy: report.strategy, timingWindowNanoseconds: report.timingWindowNanoseconds ?? 0,
            message: report.failure?.message ?? report.outcomeDetail, decisions: artifact.decisions,
            preemptionsBefore: artifact.shrink?.preemptionsBefore ?? 0, preemptionsAfter: artifact.shrink?.preemptionsAfter ?? 0,
            replayCall: "Rehearsal.replay(\(String(describing: S.self))(), \(arguments.joined(separator: ", ")))",
            // The unshrunk run's command: its seed and strategy reproduce it without a decisions log.
            replayCommand: failed.replayCommand,
            story: (report.story ?? []).map { line in
                "t=\(ReportFormat.duration(line.timeNanoseconds)) \(line.user): \(line.event)"
            })
    }

    /// Records the refusal (the missing linker setting) when virtual time is not in effect.
    static func virtualTimeInEffect(at location: SourceLocation, problem: String? = Simulation.virtualTimeProblem) -> Bool {
        guard let problem else { return true }
        Issue.record(Comment(rawValue: problem), sourceLocation: location)
        return false
    }
}
