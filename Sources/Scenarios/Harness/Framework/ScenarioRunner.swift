import Sim

/// Runs one seed of a scenario on the kernel and turns what happened into a `RunReport`.
/// A violation, a kernel outcome other than `finished`, or a missed threshold fails the run.
public enum ScenarioRunner {
    /// Validates `request` (typed error for impossible input) and resolves it against its scenario,
    /// without running anything.
    package static func prepare(_ request: RunRequest) throws(ScenarioError) -> PreparedRun {
        try prepare(request, scenario: try ScenarioRegistry.scenario(named: request.scenario))
    }

    /// Validates `request` against `scenario` (already looked up) and resolves it.
    static func prepare(_ request: RunRequest, scenario: any Scenario) throws(ScenarioError) -> PreparedRun {
        if let problem = request.world?.problem(for: scenario) { throw .malformedWorld(problem) }
        let requested = (request.world?.parameters ?? [:]).merging(request.parameters) { _, explicit in explicit }
        let parameters = try ScenarioParameters.resolve(requested, specs: scenario.parameters, scenario: scenario.name)
        try scenario.validate(parameters)
        if let variant = request.variant, !scenario.variants.contains(variant) {
            throw .unknownVariant(scenario: scenario.name, name: variant, valid: scenario.variants)
        }
        if let problem = request.swarm?.problem(kinds: scenario.swarmKinds) { throw .malformedSwarm(problem) }
        // A misspelled operation would otherwise fail the run as "no samples" (exit 1).
        for threshold in request.thresholds where !scenario.operations.contains(threshold.operation) {
            throw .malformedThreshold(threshold.expression, reason: "scenario \(scenario.name) has no operation '\(threshold.operation)'; operations: \(scenario.operations.joined(separator: ", "))")
        }
        return PreparedRun(scenario: scenario, parameters: parameters, request: request)
    }

    /// Runs `request` on the calling thread (blocks until the simulation ends).
    public static func run(_ request: RunRequest) throws(ScenarioError) -> (report: RunReport, trace: [TraceEvent]) {
        let execution = try execute(request)
        return (execution.report, execution.trace)
    }

    /// Everything one run produced: the report, the trace (when recorded), the decisions log
    /// (replaying it reproduces the run) and the latency samples.
    public struct Execution: Sendable {
        /// The run's report.
        public var report: RunReport
        /// The full trace, empty unless requested.
        public var trace: [TraceEvent]
        /// The decisions log (replaying it reproduces the run).
        public var decisions: [UInt32]
        /// Every latency sample the run recorded.
        public var samples: [LatencySample]
        /// A replayed decisions log that asked for a choice that did not exist (nil: followed exactly).
        public var replayDivergence: ReplayDivergence? = nil
        /// The alternatives at each choice point, in log order (empty unless `RunRequest.recordsChoices`).
        public var choiceCounts: [UInt32] = []
        /// What test hooks counted while the run ended (tests: proof that a hook took effect).
        package var testCounts: [String: Int] = [:]
    }

    /// The kernel configuration of `request` (its replay log, when it has one).
    package static func configuration(_ request: RunRequest) -> SimulationConfiguration {
        var configuration = request.limits.apply(to: SimulationConfiguration(
            seed: request.seed, strategy: request.effectiveStrategy, recordsTrace: request.recordsTrace,
            timingWindowNanoseconds: request.effectiveTimingWindowNanoseconds))
        configuration.recordsChoices = request.recordsChoices
        return configuration
    }

    /// The root task of one run of `request`: a fresh `ScenarioContext` per invocation, handed
    /// to `sink` first, so the same body can run many times (determinism check, shrinking).
    /// `run`, the shrinker and the determinism check all use this body, so their decisions agree.
    package static func body(
        _ prepared: PreparedRun, sink: @escaping @Sendable (ScenarioContext) -> Void
    ) -> @Sendable () async throws -> Void {
        let scenario = prepared.scenario, parameters = prepared.parameters, request = prepared.request
        let name = scenario.name
        return {
            let context = ScenarioContext(
                scenario: name, seed: request.seed, parameters: parameters, variant: request.variant, swarm: request.swarm,
                world: request.world, testHooks: request.testHooks)
            sink(context)
            // No strategy here: a replay (decisions log) must hash the same as the run it replays.
            Simulation.record("scenario \(name) seed \(request.seed) variant \(request.variant ?? "careful")")
            do {
                try await scenario.run(context)
            } catch let stopped as ScenarioStopped {
                context.stoppedByViolation = true  // typed, so the runner never parses the outcome's text
                throw stopped
            }
        }
    }

    /// Runs `request` and keeps everything (see `Execution`).
    public static func execute(_ request: RunRequest) throws(ScenarioError) -> Execution {
        execute(try prepare(request))
    }

    /// Runs a prepared run and keeps everything (see `Execution`).
    package static func execute(_ prepared: PreparedRun) -> Execution {
        let scenario = prepared.scenario, parameters = prepared.parameters, request = prepared.request
        let box = ContextBox()
        let result = Simulation.run(configuration(request), body(prepared, sink: box.set))
        let context = box.context!
        let observed = context.snapshot
        var failure = Self.failure(result, observed: observed, context: context, scenario: scenario)
        let latency = Self.latency(observed, seed: request.seed)
        let thresholds = Self.thresholds(request, latency: latency)
        if failure == nil, let missed = thresholds.first(where: { !$0.passed }) {
            let observedText = missed.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            failure = .init(kind: .threshold, message: "threshold \(missed.expression) missed (observed \(observedText))")
        }
        let checks = Self.checks(scenario, observed: observed, parameters: parameters)
        let outcomeKind: String
        if case .rootThrew = result.outcome, observed.violation != nil, context.stoppedByViolation {
            outcomeKind = "stopped-by-violation"
        } else {
            outcomeKind = result.outcome.kind
        }
        let (identity, replay) = Self.identity(request, result: result, scenario: scenario, parameters: parameters)
        var report = RunReport(
            runId: prepared.runId, identity: identity, passed: failure == nil, failure: failure,
            violation: observed.violation, outcome: outcomeKind, outcomeDetail: result.outcome.description,
            steps: result.steps, virtualNanoseconds: result.virtualNanoseconds, traceHash: result.traceHash.description,
            build: BuildFingerprint(commit: request.gitCommit ?? "unknown"), checks: checks, latency: latency, thresholds: thresholds,
            timeline: Self.timeline(observed), droppedLatencySamples: observed.droppedSamples,
            droppedTimelineEntries: observed.droppedTimeline, replayCommand: replay,
            replayedDecisions: request.decisions == nil ? nil : true,
            timingWindowNanoseconds: request.effectiveTimingWindowNanoseconds,
            choicePoints: result.decisions.count, timingChoicePoints: Int(result.timingDecisions),
            faults: observed.faults)
        report.coverage = observed.coverage.isEmpty && !scenario.usesBackend ? nil : observed.coverage
        report.calendar = observed.calendar
        if let failure {
            let operations = observed.violation.flatMap { violation in scenario.checks.first { $0.name == violation.check }?.operations } ?? []
            report.story = StoryLine.story(
                timeline: report.timeline, violation: observed.violation, failure: failure.message, operations: operations,
                samples: observed.samples, endNanoseconds: result.virtualNanoseconds, endStep: result.steps)
        }
        var execution = Execution(report: report, trace: result.trace, decisions: result.decisions, samples: observed.samples, replayDivergence: result.replayDivergence, choiceCounts: result.choiceCounts)
        execution.testCounts = context.testCounts
        return execution
    }

    /// Why the run failed before thresholds are judged: a violation, a kernel outcome other than
    /// success, or a backend scenario that built no backend through its context.
    private static func failure(
        _ result: SimulationResult<Void>, observed: ScenarioObservations, context: ScenarioContext, scenario: any Scenario
    ) -> RunReport.Failure? {
        if let violation = observed.violation {
            return .init(kind: .invariant, message: "\(violation.check): \(violation.message) (step \(violation.step))")
        } else if !result.outcome.isSuccess {
            return .init(kind: .kernel, message: result.outcome.description)
        } else if scenario.usesBackend && context.participantsJoined == 0 {
            return .init(kind: .harness, message: "\(scenario.name) built no backend through its ScenarioContext: the run's faults never applied")
        }
        return nil
    }

    /// One latency summary per operation that recorded samples, in name order.
    private static func latency(_ observed: ScenarioObservations, seed: UInt64) -> [LatencySummary] {
        let operations = Set(observed.samples.map(\.operation)).sorted()
        return operations.map { operation in
            LatencySummary(operation: operation, samples: observed.samples.filter { $0.operation == operation }, seed: seed)
        }
    }

    /// Each requested threshold judged on the run's latency (no samples: missed).
    private static func thresholds(_ request: RunRequest, latency: [LatencySummary]) -> [RunReport.ThresholdResult] {
        request.thresholds.map { threshold in
            let observedValue = latency.first { $0.operation == threshold.operation }?.value(of: threshold.statistic)
            return RunReport.ThresholdResult(
                expression: threshold.expression, observedNanoseconds: observedValue,
                passed: observedValue.map(threshold.isMet(by:)) ?? false)
        }
    }

    /// Each declared check's status and observation count in this run.
    private static func checks(
        _ scenario: any Scenario, observed: ScenarioObservations, parameters: ScenarioParameters
    ) -> [RunReport.CheckResult] {
        scenario.checks.map { declaration -> RunReport.CheckResult in
            let count = observed.observations[declaration.name] ?? 0
            let unreachable = declaration.unreachableReason(parameters)
            var status: CheckStatus
            switch declaration.kind {
            case .sometimes: status = observed.reached.contains(declaration.name) ? .reached : .notReached
            case .always, .eventually:
                status = observed.violation?.check == declaration.name ? .violated : (count == 0 ? .notChecked : .passed)
            }
            // A check its parameters rule out is not a gap in this run's coverage: say why instead.
            if unreachable != nil, status == .notReached || status == .notChecked { status = .unreachable }
            return .init(name: declaration.name, kind: declaration.kind, summary: declaration.summary, status: status, observations: count,
                         unreachableReason: status == .unreachable ? unreachable : nil)
        }
    }

    /// The run's identity and the command line that replays it.
    private static func identity(
        _ request: RunRequest, result: SimulationResult<Void>, scenario: any Scenario, parameters: ScenarioParameters
    ) -> (identity: RunIdentity, replay: String) {
        // The strategy the seed actually ran: a portfolio's member, PCT with its measured horizon.
        let ranStrategy = request.decisions == nil ? result.configuration.strategy : request.strategy.resolved(forSeed: request.seed)
        let identity = RunIdentity(
            scenario: scenario.name, seed: request.seed, strategy: ranStrategy.description, variant: request.variant,
            parameters: parameters.values, swarm: request.swarm, world: request.world,
            limits: request.limits == .standard ? nil : request.limits)
        var replayLine = identity.commandLine(explicit: Set(request.parameters.keys), timingWindowNanoseconds: request.timingWindowNanoseconds)
        replayLine.thresholds = request.thresholds.map(\.expression)
        replayLine.limits = request.limits
        return (identity, replayLine.description)
    }

    /// The users' timeline with the faults that took effect (user `backend`) merged in by time,
    /// within the report's timeline limit (users' entries first).
    static func timeline(_ observed: ScenarioObservations) -> [TimelineEntry] {
        let room = max(0, ScenarioLimits.maxTimelineEntries - observed.timeline.count)
        let merged = (observed.timeline + observed.faultEvents.prefix(room)).enumerated().sorted { a, b in
            a.element.timeNanoseconds != b.element.timeNanoseconds ? a.element.timeNanoseconds < b.element.timeNanoseconds : a.offset < b.offset
        }
        return merged.map(\.element)
    }

    /// Checks that `request` runs the same twice (FoundationDB's nondeterminism check); on a
    /// mismatch the verdict names the first divergent trace entry.
    package static func checkDeterminism(_ prepared: PreparedRun) -> DeterminismCheck.Verdict {
        DeterminismCheck.check(configuration(prepared.request), body(prepared, sink: { _ in }))
    }

    /// Rebuilds the request that produced `report` (for replay).
    package static func request(replaying report: RunReport) throws(ScenarioError) -> RunRequest {
        try RunRequest(
            replaying: report.identity,
            thresholds: try report.thresholds.map { (t: RunReport.ThresholdResult) throws(ScenarioError) in try Threshold(parsing: t.expression) },
            timingWindowNanoseconds: report.timingWindowNanoseconds ?? 0)
    }
}

/// Holds the context of the run in progress, so the runner can read it after `Simulation.run`.
final class ContextBox: @unchecked Sendable {
    // Written and read on the simulation's own thread only (before and after `Simulation.run`).
    private(set) var context: ScenarioContext?
    var set: @Sendable (ScenarioContext) -> Void { { [self] in context = $0 } }
}
