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
///         let bank = Bank()                       // RehearsableActor (or SimActor) actors
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
    /// Schedules the search for fewer preemptions judges after a shrink (`ScheduleSearch`).
    public static let defaultMinimalScheduleBudget = 2_000

    /// The timing window of closure sweeps (the scenarios' default: timers due within 10 ms of
    /// each other are concurrent and the strategy orders them).
    public static let defaultTimingWindowNanoseconds = RunRequest.defaultTimingWindowNanoseconds

    /// Fails the running simulation with `message` unless `condition` holds (the run ends there).
    public static func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(RehearsalCheckFailure) {
        if !condition { throw RehearsalCheckFailure(message()) }
    }

    // MARK: Closures

    /// Limits of a sweep's runs: a livelock ends within a million steps (about a second), an endless
    /// sleep loop within a virtual day, work from a real thread is an escape, and a job that runs
    /// 30 s of wall time without returning (a loop without an `await`) stops the process, naming it.
    public static let defaultLimits = RunLimits(maxSteps: 1_000_000, maxVirtualNanoseconds: 24 * 3_600 * 1_000_000_000, strict: true, stuckJobSeconds: 30)

    /// One seed in this many (by a hash of the seed) runs twice and must give the same trace.
    public static let defaultDeterminismEvery = 10

    /// Runs `body` as the root task of a simulation for every seed × strategy of `options` until
    /// one fails (the body throws, deadlocks, escapes or hits a limit) or a sampled seed runs
    /// differently twice (nondeterminism); shrinks the failure's decisions, records a test issue
    /// describing it and returns it (nil: every run passed).
    @discardableResult
    public static func sweep(
        seeds: Range<UInt64> = 0..<100, timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds,
        limits: RunLimits = defaultLimits, options: SweepOptions = SweepOptions(),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        let failure = find(seeds: seeds, timingWindowNanoseconds: timingWindowNanoseconds, limits: limits, options: options, body)
        if let failure { Issue.record(Comment(rawValue: failure.description), sourceLocation: location) }
        return failure
    }

    /// A sweep that must find a failure: returns it without recording it, and records a test issue
    /// when nothing was simulated (the linker setting is missing), when every run passed, or when
    /// the failure found does not satisfy `matching` (another bug). Use it for a test that shows a
    /// bug is caught; never wrap `sweep` in `withKnownIssue`, which also swallows "nothing ran".
    @discardableResult
    public static func expectFailure(
        seeds: Range<UInt64> = 0..<100, timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds,
        limits: RunLimits = defaultLimits, options: SweepOptions = SweepOptions(),
        matching: (RehearsalFailure) -> Bool = { _ in true },
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        let failure = find(
            seeds: seeds, timingWindowNanoseconds: timingWindowNanoseconds, limits: limits, options: options.runningEachSeedOnce, body)
        return expected(failure, runs: seeds.count * options.strategies.count, matching: matching, at: location)
    }

    /// Records what is wrong with an expected failure (none, or not the one expected), or returns it.
    static func expected(_ failure: RehearsalFailure?, runs: Int, matching: (RehearsalFailure) -> Bool, at location: SourceLocation) -> RehearsalFailure? {
        guard let failure else {
            Issue.record(Comment(rawValue: "expected a failure, but all \(runs) runs passed"), sourceLocation: location)
            return nil
        }
        guard matching(failure) else {
            Issue.record(Comment(rawValue: "expected a particular failure, found another:\n\(failure.description)"), sourceLocation: location)
            return nil
        }
        return failure
    }

    /// The first failure of a closure sweep, shrunk (nil: every run passed).
    static func find(
        seeds: Range<UInt64>, timingWindowNanoseconds: UInt64, limits: RunLimits, options: SweepOptions,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure? {
        for seed in seeds {
            for strategy in options.strategies {
                let configuration = limits.apply(to: SimulationConfiguration(seed: seed, strategy: strategy, timingWindowNanoseconds: timingWindowNanoseconds))
                let result = Simulation.run(configuration, body)
                if !result.outcome.isSuccess {
                    return shrink(result, maxRuns: options.maxShrinkRuns, scheduleBudget: options.minimalScheduleBudget, body)
                }
                if SweepRunner.isDeterminismSample(seed, every: options.determinismEvery) {
                    let verdict = DeterminismCheck.check(configuration, body)
                    if !verdict.isDeterministic { return nondeterministic(verdict, configuration) }
                }
            }
        }
        return nil
    }

    /// A nondeterminism finding: the first divergent trace entry and the usual causes.
    static func nondeterministic(_ verdict: DeterminismCheck.Verdict, _ configuration: SimulationConfiguration) -> RehearsalFailure {
        RehearsalFailure(
            seed: configuration.seed, strategy: configuration.strategy.description, timingWindowNanoseconds: configuration.timingWindowNanoseconds,
            message: "nondeterministic: the same seed ran differently twice (\(verdict.summary)); " + likelyCauses,
            decisions: [], preemptionsBefore: 0, preemptionsAfter: 0, replayCall: "(none: a nondeterministic body does not replay)")
    }

    /// What makes a body nondeterministic, for the messages that report it.
    static let likelyCauses = "likely causes: system randomness (Int.random(in:) or .shuffled() without `using:`, UUID(), SystemRandomNumberGenerator: use Simulation.random), work on a real thread (DispatchQueue, a thread pool), iteration over a Set or Dictionary built in another order, or state kept between runs (a global or static var, a singleton's cache: the second run starts where the first left it)"

    /// Runs `body` once, replaying `decisions` at `seed` (what a sweep's failure prints); records
    /// a test issue when the run fails (so a test that reproduces a bug fails until it is fixed)
    /// or when the log no longer fits the body. Returns the run.
    @discardableResult
    public static func replay(
        seed: UInt64, decisions: [UInt32], timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds,
        limits: RunLimits = defaultLimits, build: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> SimulationResult<Void>? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        let configuration = limits.apply(to: SimulationConfiguration(
            seed: seed, strategy: .replay(decisions: decisions), timingWindowNanoseconds: timingWindowNanoseconds))
        let result = Simulation.run(configuration, body)
        if !result.outcome.isSuccess {
            Issue.record(Comment(rawValue: "replayed seed \(seed): \(result.outcome)"), sourceLocation: location)
        }
        if let divergence = result.replayDivergence {
            Issue.record(Comment(rawValue: buildNote(build) + "the decisions log does not fit this body any more: \(divergence)"), sourceLocation: location)
        }
        return result
    }

    /// Replays a failure that must still fail (a test showing the printed replay reproduces a bug
    /// not fixed yet): returns the run without recording its failure, and records a test issue when
    /// the replay passes, when its outcome does not satisfy `matching`, or when the log no longer
    /// fits the body. Use it where `replay` would be wrapped in `withKnownIssue`, which also
    /// swallows "nothing ran" and "the log does not fit". Pass the sweep's `limits` if it had
    /// others than the defaults (the failure's `replayCall` spells them).
    @discardableResult
    public static func expectFailure(
        replaying failure: RehearsalFailure, limits: RunLimits = defaultLimits,
        matching: (String) -> Bool = { _ in true },
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> SimulationResult<Void>? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        if failure.message.hasPrefix("nondeterministic") {
            Issue.record(Comment(rawValue: "a nondeterministic failure has no schedule to replay: \(failure.message)"), sourceLocation: location)
            return nil
        }
        let configuration = limits.apply(to: SimulationConfiguration(
            seed: failure.seed, strategy: .replay(decisions: failure.decisions), timingWindowNanoseconds: failure.timingWindowNanoseconds))
        let result = Simulation.run(configuration, body)
        if let divergence = result.replayDivergence {
            Issue.record(Comment(rawValue: buildNote(failure.build) + "the decisions log does not fit this body any more: \(divergence)"), sourceLocation: location)
        } else if result.outcome.isSuccess {
            Issue.record(Comment(rawValue: "expected the replay of seed \(failure.seed) to fail, but it passed"), sourceLocation: location)
        } else if !matching(result.outcome.description) {
            Issue.record(Comment(rawValue: "expected a particular failure, the replay found another: \(result.outcome)"), sourceLocation: location)
        }
        return result
    }

    /// Shrinks a failing closure run's decisions (keeping the outcome's kind) and describes it.
    static func shrink(
        _ failed: SimulationResult<Void>, maxRuns: Int, scheduleBudget: Int = defaultMinimalScheduleBudget,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure {
        let kind = failed.outcome.kind
        // A livelock is the finding whatever the schedule: kept as found, not shrunk run after
        // run of a million steps.
        if case .stepLimit = failed.outcome {
            var failure = describe(failed, decisions: failed.decisions, body)
            failure.scheduleSearch = .notSearched("a livelock: the step limit ends it whatever the schedule")
            return failure
        }
        // A stuck job is not run again: each try costs the limit in wall time and a thread.
        if case .stuckJob = failed.outcome {
            let window = failed.configuration.timingWindowNanoseconds
            let windowArgument = window == defaultTimingWindowNanoseconds ? "" : ", timingWindowNanoseconds: \(window)"
            return RehearsalFailure(
                seed: failed.configuration.seed, strategy: failed.configuration.strategy.description,
                timingWindowNanoseconds: window, message: failed.outcome.description, decisions: failed.decisions,
                preemptionsBefore: DecisionShrinker.preemptions(failed.decisions), preemptionsAfter: DecisionShrinker.preemptions(failed.decisions),
                replayCall: "Rehearsal.replay(seed: \(failed.configuration.seed), decisions: \(RehearsalFailure.literal(failed.decisions))\(windowArgument)\(limitsArgument(failed.configuration))) { … }",
                build: currentBuild, scheduleSearch: stuckJobNotSearched)
        }
        let sameKind = { (result: SimulationResult<Void>) in result.outcome.kind == kind }
        let outcome = DecisionShrinker.shrink(failed.configuration, decisions: failed.decisions, maxRuns: maxRuns, stillFails: sameKind, body)
        // Then the fewest preemptions: every schedule with fewer than the shrunk log's, in rounds.
        let found = ScheduleSearch.search(
            failed.configuration, preemptions: DecisionShrinker.preemptions(outcome.decisions), budget: scheduleBudget, fails: sameKind, body)
        var failure = describe(failed, decisions: found.decisions ?? outcome.decisions, body)
        if failure.message.hasPrefix("nondeterministic") { return failure }
        failure.scheduleSearch = found.search
        return failure
    }

    /// The failure `failed` with `decisions` (shrunk, or as found), replayed once to confirm it.
    static func describe(
        _ failed: SimulationResult<Void>, decisions shrunk: [UInt32], _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure {
        let kind = failed.outcome.kind
        // The shrunk log must reproduce; if it does not, the unshrunk one does (same seed, same binary).
        var decisions = shrunk
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
        // A failure that does not come back when its own log replays is the body's nondeterminism.
        let message = final.outcome.kind == kind
            ? final.outcome.description
            : "nondeterministic: seed \(failed.configuration.seed) failed once (\(failed.outcome)) but its replay ended \(final.outcome.kind); " + likelyCauses
        return RehearsalFailure(
            seed: failed.configuration.seed, strategy: failed.configuration.strategy.description,
            timingWindowNanoseconds: window, message: message, decisions: decisions,
            preemptionsBefore: DecisionShrinker.preemptions(failed.decisions),
            preemptionsAfter: DecisionShrinker.preemptions(decisions),
            replayCall: "Rehearsal.replay(seed: \(failed.configuration.seed), decisions: \(RehearsalFailure.literal(decisions))\(windowArgument)\(limitsArgument(failed.configuration))) { … }",
            build: currentBuild)
    }

    /// This binary, as a failure names the build that found it: a schedule belongs to one binary.
    public static let currentBuild = "swift \(BuildFingerprint.compilerVersion), \(BuildFingerprint.buildConfiguration), binary \(BuildFingerprint.executableBuildID?.prefix(12) ?? "unknown")"

    /// What a replay that did not reproduce says first when another build found the schedule.
    static func buildNote(_ foundBy: String?) -> String {
        guard let foundBy, foundBy != currentBuild else { return "" }
        return "this schedule was found by \(foundBy); this is \(currentBuild): a schedule belongs to one binary (the optimizer merges or drops actor hops, so a debug and a release build schedule differently). "
    }

    /// `, limits: …` for a replay call when the sweep's limits were not the defaults.
    static func limitsArgument(_ configuration: SimulationConfiguration) -> String {
        let limits = RunLimits(
            maxSteps: configuration.limits.maxSteps, maxVirtualNanoseconds: configuration.limits.maxVirtualNanoseconds,
            strict: configuration.strict, stuckJobSeconds: configuration.stuckJobLimit.map { Int($0.components.seconds) })
        guard limits != defaultLimits else { return "" }
        return ", limits: " + literal(limits)
    }

    /// `limits` as Swift code.
    static func literal(_ limits: RunLimits) -> String {
        "RunLimits(maxSteps: \(limits.maxSteps), maxVirtualNanoseconds: \(limits.maxVirtualNanoseconds), strict: \(limits.strict), stuckJobSeconds: \(limits.stuckJobSeconds.map(String.init) ?? "nil"))"
    }

    // MARK: Scenarios

    /// Runs `scenario` through the same runner as `rehearse run` for every seed × strategy of
    /// `options` until one fails (a violated Always/Eventually check, a kernel failure, a missed
    /// threshold) or a sampled seed runs differently twice; shrinks it as `rehearse shrink` does
    /// (parameters toward their minimums, then decisions), records a test issue and returns it.
    /// Each seed runs in the world it draws, as `rehearse fuzz` does (`world: .swarm`: every
    /// parameter not in `parameters` from its range, and the backend's fault rates and outages;
    /// `.guided` draws as `.swarm`); `.default` runs the scenario's defaults. Registers the scenario
    /// (`ScenarioRegistry.register`). `executable` names the program whose `Rehearse.main` lists
    /// the scenario, for the printed command line (a built-in scenario's is `rehearse`).
    @discardableResult
    public static func sweep<S: Scenario>(
        _ scenario: S, seeds: Range<UInt64> = 0..<100,
        parameters: [String: Int] = [:], world: WorldMode = .swarm, variant: String? = nil, thresholds: [String] = [],
        limits: RunLimits = defaultLimits, options: SweepOptions = SweepOptions(), executable: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        let plan = ScenarioSweep(
            seeds: seeds, parameters: parameters, world: world, variant: variant, thresholds: thresholds, limits: limits,
            options: options, executable: executable)
        do throws(ScenarioError) {
            let failure = try plan.find(scenario)
            if let failure { Issue.record(Comment(rawValue: failure.description), sourceLocation: location) }
            return failure
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
            return nil
        }
    }

    /// A scenario sweep that must find a failure (see the closure `expectFailure`): returns it
    /// without recording it; records a test issue when nothing was simulated, every run passed,
    /// or the failure does not satisfy `matching`.
    @discardableResult
    public static func expectFailure<S: Scenario>(
        _ scenario: S, seeds: Range<UInt64> = 0..<100,
        parameters: [String: Int] = [:], world: WorldMode = .swarm, variant: String? = nil, thresholds: [String] = [],
        limits: RunLimits = defaultLimits, options: SweepOptions = SweepOptions(), executable: String? = nil,
        matching: (RehearsalFailure) -> Bool = { _ in true },
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        let plan = ScenarioSweep(
            seeds: seeds, parameters: parameters, world: world, variant: variant, thresholds: thresholds, limits: limits,
            options: options.runningEachSeedOnce, executable: executable)
        do throws(ScenarioError) {
            return expected(try plan.find(scenario), runs: seeds.count * options.strategies.count, matching: matching, at: location)
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
            return nil
        }
    }

    /// Replays one run of `scenario` (what a scenario sweep's failure prints) through the runner, in
    /// `world` (the fault rates and outages the failure needs; nil: the scenario's defaults);
    /// records a test issue when it fails, or when the log does not fit (saying first when another
    /// build found it). Returns its report.
    @discardableResult
    public static func replay<S: Scenario>(
        _ scenario: S, seed: UInt64, strategy: String = "random", parameters: [String: Int] = [:], world: World? = nil, variant: String? = nil,
        decisions: [UInt32], limits: RunLimits = defaultLimits, build: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RunReport? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        do throws(ScenarioError) {
            try ScenarioRegistry.register([scenario])
            guard let parsed = SchedulingStrategy(parsing: strategy) else { throw .malformedStrategy(strategy) }
            var request = RunRequest(
                scenario: scenario.name, seed: seed, strategy: parsed, parameters: parameters, variant: variant, decisions: decisions)
            request.limits = limits
            request.world = world
            return try replayed(request, what: "\(scenario.name) seed \(seed)", note: buildNote(build), at: location)
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
            return nil
        }
    }

    /// Replays the failure artifact at `path` (what a sweep, `explore`, `rehearse fuzz` or
    /// `rehearse shrink` wrote) exactly as `rehearse replay` does: its seed, strategy, parameters,
    /// world, variant, timing window, limits and decisions log. Records a test issue when the run
    /// fails, when the file is not an artifact of `scenario`, or when the log does not fit (saying
    /// first when another build wrote it). Returns the report.
    @discardableResult
    public static func replay<S: Scenario>(
        _ scenario: S, artifact path: String,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RunReport? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location) else { return nil }
        do throws(ScenarioError) {
            try ScenarioRegistry.register([scenario])
            let artifact = try ReplayArtifact.read(path, scenario: scenario.name)
            let note = artifact.build.binary.map { $0 == BuildFingerprint.executableBuildID } == false
                ? "\(path) was recorded on \(artifact.build); this is \(currentBuild): a schedule belongs to one binary. " : ""
            return try replayed(try artifact.replayRequest(gitCommit: nil), what: path, note: note, at: location)
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
            return nil
        }
    }

    /// Why a stuck job's schedule is kept as found (closures and scenarios alike).
    static let stuckJobNotSearched = ScheduleSearch.notSearched("a stuck job: every try would cost the stuck-job limit and abandon a thread")

    /// Runs a replay's `request`; records its failure (`what` names the run) and a decisions log
    /// that no longer fits, each after `note` (which build found it, when another did).
    private static func replayed(_ request: RunRequest, what: String, note: String, at location: SourceLocation) throws(ScenarioError) -> RunReport {
        let execution = try ScenarioRunner.execute(request)
        if !execution.report.passed {
            let message = execution.report.failure?.message ?? execution.report.outcomeDetail
            Issue.record(Comment(rawValue: note + "replayed \(what): \(message)"), sourceLocation: location)
        }
        if let divergence = execution.replayDivergence {
            Issue.record(Comment(rawValue: note + "the decisions log does not fit this scenario any more: \(divergence)"), sourceLocation: location)
        }
        return execution.report
    }

    /// Records the refusal (the missing linker setting) when virtual time is not in effect.
    static func virtualTimeInEffect(at location: SourceLocation, problem: String? = Simulation.virtualTimeProblem) -> Bool {
        guard let problem else { return true }
        Issue.record(Comment(rawValue: problem), sourceLocation: location)
        return false
    }
}
