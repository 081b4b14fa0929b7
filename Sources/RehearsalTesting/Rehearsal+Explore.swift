import Harness
import Sim
import Testing

extension Rehearsal {
    /// The bound `explore` takes by default: every schedule with at most two preemptions.
    public static let defaultPreemptionBound = 2
    /// The schedules `explore` judges at most by default.
    public static let defaultMaxSchedules = 100_000

    /// Runs `body` under every schedule with at most `preemptionBound` preemptions (non-default
    /// scheduling decisions), fewest first, with `seed`'s random streams fixed: a proof that no
    /// schedule within the bound fails, where `sweep` only samples. Records a test issue for the
    /// first failure (with its replay call), for a body that runs differently under the same
    /// schedule, and (with `requireComplete`) when `maxSchedules` stops the search first.
    @discardableResult
    public static func explore(
        preemptionBound: Int = defaultPreemptionBound, maxSchedules: Int = defaultMaxSchedules, seed: UInt64 = 0,
        timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds, limits: RunLimits = defaultLimits,
        requireComplete: Bool = true,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalExploration? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location), valid(preemptionBound, maxSchedules, at: location) else { return nil }
        let exploration = explored(preemptionBound, maxSchedules, seed, timingWindowNanoseconds, limits, body)
        record(exploration, requireComplete: requireComplete, at: location)
        return exploration
    }

    /// An exploration that must find a failure: returns it without recording it (its preemptions
    /// are the fewest any failing schedule has), and records a test issue when nothing was
    /// simulated, no schedule within the bound failed, or the failure does not satisfy `matching`.
    @discardableResult
    public static func expectFailure(
        preemptionBound: Int, maxSchedules: Int = defaultMaxSchedules, seed: UInt64 = 0,
        timingWindowNanoseconds: UInt64 = defaultTimingWindowNanoseconds, limits: RunLimits = defaultLimits,
        matching: (RehearsalFailure) -> Bool = { _ in true },
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalFailure? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location), valid(preemptionBound, maxSchedules, at: location) else { return nil }
        let exploration = explored(preemptionBound, maxSchedules, seed, timingWindowNanoseconds, limits, body)
        guard let failure = exploration.failure else {
            Issue.record(Comment(rawValue: "expected a failure within \(preemptionBound) preemptions: \(exploration.summary)"), sourceLocation: location)
            return nil
        }
        guard matching(failure) else {
            Issue.record(Comment(rawValue: "expected a particular failure, found another:\n\(failure.description)"), sourceLocation: location)
            return nil
        }
        return failure
    }

    /// Explores one seed of `scenario` (its data, faults and world fixed) under every schedule
    /// with at most `preemptionBound` preemptions, as `rehearse explore` does; records a test issue
    /// for a failure (with a replay call), nondeterminism, a bad request, and (with
    /// `requireComplete`) a search the limit stopped. Scenarios have thousands of choice points:
    /// a bound of 1 over small parameters is what finishes. A failure is written as an artifact
    /// under `artifactFolder` (`<folder>/<scenario>/explore/`), which its replay call and command
    /// line (`executable`, or `rehearse` for a built-in scenario) both read.
    @discardableResult
    public static func explore<S: Scenario>(
        _ scenario: S, preemptionBound: Int = 1, maxSchedules: Int = defaultMaxSchedules, seed: UInt64 = 1,
        parameters: [String: Int] = [:], variant: String? = nil, limits: RunLimits = defaultLimits, requireComplete: Bool = true,
        artifactFolder: String? = "reports", executable: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> RehearsalExploration? {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard virtualTimeInEffect(at: location), valid(preemptionBound, maxSchedules, at: location) else { return nil }
        do throws(ScenarioError) {
            try ScenarioRegistry.register([scenario])
            var request = RunRequest(scenario: scenario.name, seed: seed, strategy: .nonpreemptive, parameters: parameters, variant: variant)
            request.limits = limits
            let search = try ScenarioExplorer.explore(request, preemptionBound: preemptionBound, maxSchedules: maxSchedules)
            let failure = search.failure.map { found in
                let report = found.detail.report
                var arguments = ["seed: \(seed)", "strategy: \"nonpreemptive\""]
                if !parameters.isEmpty {
                    arguments.append("parameters: [" + parameters.keys.sorted().map { "\"\($0)\": \(parameters[$0]!)" }.joined(separator: ", ") + "]")
                }
                if let variant { arguments.append("variant: \"\(variant)\"") }
                arguments.append("decisions: \(RehearsalFailure.literal(found.decisions))")
                if limits != defaultLimits { arguments.append("limits: \(literal(limits))") }
                let artifact = FailureArtifact(failed: found.detail, request: request)
                let path = ScenarioSweep.write(artifact, under: artifactFolder, kind: "explore")
                var failure = RehearsalFailure(
                    seed: seed, strategy: "explore:\(preemptionBound)", timingWindowNanoseconds: report.timingWindowNanoseconds ?? 0,
                    message: report.failure?.message ?? report.outcomeDetail, decisions: found.decisions,
                    preemptionsBefore: found.preemptions, preemptionsAfter: found.preemptions,
                    replayCall: path.map { FailureArtifact.swiftReplayCall(typeName: String(describing: S.self), path: $0) }
                        ?? "Rehearsal.replay(\(String(describing: S.self))(), \(arguments.joined(separator: ", ")))",
                    replayCommand: path.flatMap { ScenarioSweep.replayCommand(artifact: $0, scenario: scenario.name, executable: executable) },
                    story: (report.story ?? []).map { line in "t=\(ReportFormat.duration(line.timeNanoseconds)) \(line.user): \(line.event)" },
                    build: currentBuild, artifact: path)
                failure.parameters = artifact.parameters
                return failure
            }
            let result = exploration(search, failure: failure)
            record(result, requireComplete: requireComplete, at: location)
            return result
        } catch {
            Issue.record(Comment(rawValue: "bad input: \(error)"), sourceLocation: location)
            return nil
        }
    }

    /// Records a bound or limit a search cannot take.
    static func valid(_ preemptionBound: Int, _ maxSchedules: Int, at location: SourceLocation) -> Bool {
        guard (0...8).contains(preemptionBound), maxSchedules > 0 else {
            Issue.record(Comment(rawValue: "bad input: preemptionBound \(preemptionBound) must be in 0...8 and maxSchedules \(maxSchedules) positive"), sourceLocation: location)
            return false
        }
        return true
    }

    /// The search over a closure, its failure described as a sweep describes one.
    static func explored(
        _ bound: Int, _ maxSchedules: Int, _ seed: UInt64, _ window: UInt64, _ limits: RunLimits,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> RehearsalExploration {
        let configuration = limits.apply(to: SimulationConfiguration(seed: seed, strategy: .replay(decisions: []), timingWindowNanoseconds: window))
        let search = Simulation.explore(configuration, preemptionBound: bound, maxSchedules: maxSchedules, body)
        let failure = search.failure.map { found in
            let windowArgument = window == defaultTimingWindowNanoseconds ? "" : ", timingWindowNanoseconds: \(window)"
            return RehearsalFailure(
                seed: seed, strategy: "explore:\(bound)", timingWindowNanoseconds: window, message: found.detail.outcome.description,
                decisions: found.decisions, preemptionsBefore: found.preemptions, preemptionsAfter: found.preemptions,
                replayCall: "Rehearsal.replay(seed: \(seed), decisions: \(RehearsalFailure.literal(found.decisions))\(windowArgument)\(limitsArgument(configuration))) { … }",
                build: currentBuild)
        }
        return exploration(search, failure: failure)
    }

    /// The public summary of a search.
    static func exploration<Detail>(_ search: BoundedExplorer.Exploration<Detail>, failure: RehearsalFailure?) -> RehearsalExploration {
        RehearsalExploration(
            preemptionBound: search.preemptionBound, schedulesByPreemptions: search.schedulesByPreemptions, runs: search.runs,
            complete: search.ending == .complete, failure: failure, summary: search.summary)
    }

    /// Records what an exploration that should pass found wrong.
    static func record(_ exploration: RehearsalExploration, requireComplete: Bool, at location: SourceLocation) {
        if let failure = exploration.failure {
            Issue.record(Comment(rawValue: exploration.summary + "\n" + failure.description), sourceLocation: location)
        } else if !exploration.complete, requireComplete || exploration.summary.hasPrefix("stopped:") {
            Issue.record(Comment(rawValue: exploration.summary), sourceLocation: location)
        }
    }
}
