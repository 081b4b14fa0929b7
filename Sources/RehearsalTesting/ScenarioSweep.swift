import Foundation
import Harness
import Sim

/// One scenario sweep's plan (what `Rehearsal.sweep(_:)` and `expectFailure(_:)` were given) and
/// the search: seeds × strategies through `ScenarioRunner`, sampled seeds run twice, the first
/// failure shrunk by `FailureShrinker` and described with replay code and a command line.
struct ScenarioSweep {
    var seeds: Range<UInt64>
    var parameters: [String: Int]
    /// How each seed's world is picked (`.guided` draws as `.swarm`: a library sweep keeps no record to steer by).
    var world: WorldMode
    var variant: String?
    var thresholds: [String]
    var limits: RunLimits
    var options: SweepOptions
    var executable: String?

    /// The first failure, shrunk (nil: every run passed and every sample ran the same twice).
    func find<S: Scenario>(_ scenario: S) throws(ScenarioError) -> RehearsalFailure? {
        try ScenarioRegistry.register([scenario])
        let parsedThresholds = try thresholds.map { (text: String) throws(ScenarioError) in try Threshold(parsing: text) }
        for seed in seeds {
            for strategy in options.strategies {
                var request = RunRequest(
                    scenario: scenario.name, seed: seed, strategy: strategy, parameters: parameters, variant: variant,
                    thresholds: parsedThresholds)
                request.limits = limits
                if world != .default {
                    request.world = WorldDraw.draw(seed: seed, scenario: scenario, pinned: parameters, drawsFaults: true)
                }
                let report = try ScenarioRunner.execute(request).report
                if report.outcome == SimulationOutcome.stuckJob("").kind { return stuck(report) }
                if !report.passed { return try shrink(scenario, request) }
                if SweepRunner.isDeterminismSample(seed, every: options.determinismEvery) {
                    let again = try ScenarioRunner.execute(request).report
                    if again.traceHash != report.traceHash { return nondeterministic(report, again) }
                }
            }
        }
        return nil
    }

    /// A stuck job, as found: not run again, since each try costs the stuck-job limit in wall time
    /// and abandons a thread. Its seed and strategy replay it.
    func stuck(_ report: RunReport) -> RehearsalFailure {
        RehearsalFailure(
            seed: report.seed, strategy: report.strategy, timingWindowNanoseconds: report.timingWindowNanoseconds ?? 0,
            message: report.failure?.message ?? report.outcomeDetail, decisions: [], preemptionsBefore: 0, preemptionsAfter: 0,
            replayCall: "(none: replaying a stuck job would abandon another thread; fix the loop the message names, then sweep seeds \(report.seed)..<\(report.seed + 1) again)",
            build: Rehearsal.currentBuild, scheduleSearch: Rehearsal.stuckJobNotSearched)
    }

    /// A nondeterminism finding: the two trace hashes and the usual causes.
    func nondeterministic(_ first: RunReport, _ second: RunReport) -> RehearsalFailure {
        RehearsalFailure(
            seed: first.seed, strategy: first.strategy, timingWindowNanoseconds: first.timingWindowNanoseconds ?? 0,
            message: "nondeterministic: seed \(first.seed) ran differently twice (trace \(first.traceHash), then \(second.traceHash); \(first.steps) then \(second.steps) steps); " + Rehearsal.likelyCauses,
            decisions: [], preemptionsBefore: 0, preemptionsAfter: 0, replayCall: "(none: a nondeterministic scenario does not replay)",
            build: Rehearsal.currentBuild)
    }

    /// Shrinks a failing run with `FailureShrinker` and describes the result.
    func shrink<S: Scenario>(_ scenario: S, _ request: RunRequest) throws(ScenarioError) -> RehearsalFailure {
        let shrunk = try FailureShrinker.shrink(request, maxRuns: options.maxShrinkRuns, scheduleBudget: min(options.minimalScheduleBudget, FailureShrinker.defaultScheduleBudget))
        let report = shrunk.execution.report
        let artifact = shrunk.artifact
        var arguments = ["seed: \(report.seed)", "strategy: \"\(report.strategy)\""]
        let changed = shrunk.request.parameters.keys.sorted()
        if !changed.isEmpty {
            arguments.append("parameters: [" + changed.map { "\"\($0)\": \(shrunk.request.parameters[$0]!)" }.joined(separator: ", ") + "]")
        }
        if let world = shrunk.request.world, !world.faults.isEmpty || !world.outages.isEmpty {
            arguments.append("world: \(Self.literal(World(faults: world.faults, outages: world.outages)))")
        }
        if let variant = report.variant { arguments.append("variant: \"\(variant)\"") }
        arguments.append("decisions: \(RehearsalFailure.literal(artifact.decisions))")
        if limits != Rehearsal.defaultLimits { arguments.append("limits: \(Rehearsal.literal(limits))") }
        let path = Self.write(artifact, under: options.artifactFolder)
        var failure = RehearsalFailure(
            seed: report.seed, strategy: report.strategy, timingWindowNanoseconds: report.timingWindowNanoseconds ?? 0,
            message: report.failure?.message ?? report.outcomeDetail, decisions: artifact.decisions,
            preemptionsBefore: artifact.shrink?.preemptionsBefore ?? 0, preemptionsAfter: artifact.shrink?.preemptionsAfter ?? 0,
            replayCall: path.map { FailureArtifact.swiftReplayCall(typeName: String(describing: S.self), path: $0) }
                ?? "Rehearsal.replay(\(String(describing: S.self))(), \(arguments.joined(separator: ", ")))",
            replayCommand: path.flatMap { Self.replayCommand(artifact: $0, scenario: scenario.name, executable: executable) },
            story: (report.story ?? []).map { line in "t=\(ReportFormat.duration(line.timeNanoseconds)) \(line.user): \(line.event)" },
            build: Rehearsal.currentBuild, scheduleSearch: artifact.shrink?.scheduleSearch, artifact: path)
        failure.parameters = artifact.parameters
        if let shrink = artifact.shrink, let ending = shrink.parametersEnding {
            let changed = artifact.parameters.keys.sorted().filter { shrink.parametersBefore[$0] != artifact.parameters[$0] }
                .map { "\($0) \(shrink.parametersBefore[$0].map(String.init) ?? "?")→\(artifact.parameters[$0]!)" }
            failure.parameterShrink = (changed.isEmpty ? "unchanged" : changed.joined(separator: ", ")) + "; " + ending
        }
        return failure
    }

    /// Writes `artifact` to `<folder>/<scenario>/failures/`, as `rehearse fuzz` does: its path, or
    /// nil when no folder is set or the file cannot be written (the failure then prints the
    /// self-contained Swift call only).
    static func write(_ artifact: FailureArtifact, under folder: String?, kind: String = "failures") -> String? {
        guard let folder else { return nil }
        let directory = "\(folder)/\(artifact.scenario)/\(kind)"
        let path = "\(directory)/\(artifact.fileName)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try artifact.write(to: path)
        } catch { return nil }
        return path
    }

    /// `world` as Swift source (`World(faults: […], outages: […])`), keys in order.
    static func literal(_ world: World) -> String {
        let faults = world.faults.keys.sorted().map { "\"\($0)\": \(world.faults[$0]!)" }
        let outages = world.outages.map { outage in
            "OutageDraw(service: \"\(outage.service)\", startsPerHour: \(outage.startsPerHour), shortestSeconds: \(outage.shortestSeconds), "
                + "longestSeconds: \(outage.longestSeconds), severity: \(outage.severity), startsDown: \(outage.startsDown))"
        }
        return "World(faults: [\(faults.isEmpty ? ":" : faults.joined(separator: ", "))], outages: [\(outages.joined(separator: ", "))])"
    }

    /// `<program> replay <artifact>` under the executable that knows the scenario: `executable`
    /// when given, `rehearse` for a built-in scenario; nil for a scenario only this test
    /// registered (no program knows it).
    static func replayCommand(artifact path: String, scenario: String, executable: String?) -> String? {
        let builtIn = ScenarioRegistry.catalog.contains { $0.name == scenario }
        guard let program = executable ?? (builtIn ? "rehearse" : nil) else { return nil }
        return "\(program) replay \(path)"
    }
}
