import Foundation
import Sim

/// Runs the seeds of a sweep one at a time (the CLI runs it inside isolated worker processes):
/// each seed with its swarm when asked, a failure artifact for each failing seed, and the
/// nondeterminism check on a sample of seeds.
package struct SweepRunner: Sendable {
    /// Every `determinismEvery`-th seed (by a hash of the seed, so shards agree) is run twice;
    /// FoundationDB checks about 5 %.
    package static let defaultDeterminismEvery = 20

    /// The run each seed copies (its seed and swarm replaced), prepared once for the sweep.
    package let prepared: PreparedRun
    /// Whether each seed draws its swarm of faults (in a drawn world: its fault rates and outages).
    package var swarm: Bool
    /// How each seed's world is picked.
    package var world: WorldMode = .default
    /// Worlds chosen for particular seeds (a guided sweep's mutations), used instead of a draw.
    package var chosenWorlds: [UInt64: World] = [:]
    /// 0 turns the nondeterminism check off.
    package var determinismEvery: Int
    /// Folder for failure artifacts (nil: none written).
    package var failureDirectory: String?

    /// The request each seed's run copies.
    package var template: RunRequest { prepared.request }

    /// A runner of `prepared` over seeds; every `determinismEvery`-th seed runs twice.
    package init(prepared: PreparedRun, swarm: Bool, determinismEvery: Int = SweepRunner.defaultDeterminismEvery, failureDirectory: String?) {
        precondition(determinismEvery >= 0, "a sampling period cannot be negative")
        self.prepared = prepared
        self.swarm = swarm
        self.determinismEvery = determinismEvery
        self.failureDirectory = failureDirectory
    }

    /// A runner of `template` over seeds, prepared here (bad input throws).
    package init(template: RunRequest, swarm: Bool, determinismEvery: Int = SweepRunner.defaultDeterminismEvery, failureDirectory: String?) throws(ScenarioError) {
        self.init(prepared: try ScenarioRunner.prepare(template), swarm: swarm, determinismEvery: determinismEvery, failureDirectory: failureDirectory)
    }

    /// Whether `seed` is in the nondeterminism sample (hash-based, the same on every shard).
    package static func isDeterminismSample(_ seed: UInt64, every: Int) -> Bool {
        guard every > 0 else { return false }
        var random = SimRandom(seed: seed ^ 0x6465_7465_726D_696E)
        return random.below(every) == 0
    }

    /// The run of `seed`: the template with the seed and, when swarming, its drawn swarm; in a
    /// world swarm, the seed's drawn (or chosen) world.
    package func prepared(seed: UInt64) -> PreparedRun {
        guard world != .default else {
            return prepared.seed(seed, swarm: swarm ? SwarmConfiguration.draw(seed: seed, kinds: prepared.scenario.swarmKinds) : nil)
        }
        let drawn = chosenWorlds[seed] ?? world(seed: seed)
        // A drawn world satisfies every constraint; one that does not (a scenario's own `validate`
        // refusing what the declarations allow) runs the defaults rather than nothing.
        return (try? prepared.seed(seed, world: drawn)) ?? prepared.seed(seed, swarm: nil)
    }

    /// The world `seed` draws (pinned parameters kept; faults and outages when swarming, the ones
    /// the template names kept as given).
    package func world(seed: UInt64) -> World {
        var drawn = WorldDraw.draw(seed: seed, scenario: prepared.scenario, pinned: template.parameters, drawsFaults: swarm) ?? World()
        if let pinned = template.world {
            drawn.faults.merge(pinned.faults) { _, given in given }
            let services = Set(pinned.outages.map(\.service))
            drawn.outages = drawn.outages.filter { !services.contains($0.service) } + pinned.outages
        }
        return drawn
    }

    /// The request of `seed` (see `prepared(seed:)`).
    package func request(seed: UInt64) -> RunRequest { prepared(seed: seed).request }

    /// Runs `seed`; writes an artifact if it fails and returns its line of the sweep.
    package func run(seed: UInt64) -> (result: SweepSeedResult, artifact: FailureArtifact?) {
        let run = prepared(seed: seed)
        let request = run.request
        let execution = ScenarioRunner.execute(run)
        let report = execution.report
        var failure: SweepFailure?
        var artifact: FailureArtifact?
        var deterministic: Bool?
        if Self.isDeterminismSample(seed, every: determinismEvery) {
            let verdict = ScenarioRunner.checkDeterminism(run)
            deterministic = verdict.isDeterministic
            if !verdict.isDeterministic {
                var nondeterministic = FailureArtifact(
                    kind: .nondeterminism, identity: report.identity, decisions: execution.decisions, violation: nil,
                    message: verdict.summary, steps: report.steps, traceHash: report.traceHash, build: report.build, story: [verdict.summary])
                nondeterministic.story = [verdict.summary]
                artifact = nondeterministic
            }
        }
        if !report.passed, artifact == nil { artifact = FailureArtifact(failed: execution, request: request) }
        if let found = artifact {
            var path: String?
            if let failureDirectory {
                let target = "\(failureDirectory)/\(found.fileName)"
                do { try found.write(to: target); path = target } catch { path = nil }
            }
            failure = SweepFailure(seed: seed, kind: found.kind, check: found.violation?.check, step: found.violation?.step, message: found.message, artifact: path)
            failure?.world = request.world
            if found.kind != .nondeterminism { failure?.replayed = Self.replays(found) }
        }
        let reached = report.checks.filter { $0.kind == .sometimes && $0.status == .reached }.map(\.name)
        let checked = report.checks.filter { $0.kind != .sometimes && $0.observations > 0 }.map(\.name)
        var result = SweepSeedResult(
            seed: seed, passed: failure == nil, failure: failure, reached: reached, checked: checked, deterministic: deterministic,
            histograms: SweepSeedResult.histograms(execution.samples))
        result.faults = report.faults
        result.coverage = report.coverage
        result.strategy = report.strategy
        result.world = request.world
        return (result, artifact)
    }

    /// Whether `artifact`, read back from its JSON as `rehearse replay` reads it, reproduces: the
    /// same check at the same step with the same trace hash (for a violation), else the same
    /// failure kind. Every failure a sweep reports is checked, so "every failure replayable" is
    /// measured on every sweep, not assumed.
    static func replays(_ artifact: FailureArtifact) -> Bool {
        guard let decoded = try? FailureArtifact.decode(Data(artifact.json().utf8)),
              let request = try? decoded.replayRequest(gitCommit: nil),
              let replay = try? ScenarioRunner.execute(request).report
        else { return false }
        if let violation = artifact.violation {
            return replay.violation?.check == violation.check && replay.violation?.step == violation.step && replay.traceHash == artifact.traceHash
        }
        return !replay.passed && replay.failure?.kind == artifact.kind
    }

    /// An empty result for `range` of this sweep (add seeds to it).
    package func emptyResult(range: SeedRange, shard: String?, build: BuildFingerprint) -> SweepResult {
        let scenario = prepared.scenario, parameters = prepared.parameters
        // A world sweep records the pinned parameters (each seed draws the rest); a default one, every value.
        var result = SweepResult(
            scenario: scenario.name, strategy: template.strategy.description, variant: template.variant,
            parameters: world == .default ? parameters.values : template.parameters,
            swarm: swarm, range: range, shard: shard, goals: scenario.checks.filter { $0.kind == .sometimes }.map(\.name),
            checks: scenario.checks.filter { $0.kind != .sometimes }.map(\.name),
            unreachable: scenario.checks.compactMap { check in
                let reason = world == .default ? check.unreachableReason(parameters) : check.unreachableReason(parameters, pinned: Set(template.parameters.keys))
                return reason.map { SweepResult.UnreachableCheck(name: check.name, reason: $0) }
            },
            build: build)
        if world != .default { result.world = world }
        result.thresholds = template.thresholds.map(\.expression)
        result.timingWindowNanoseconds = template.timingWindowNanoseconds
        return result
    }
}
