import Sim
import Synchronization

/// Minimises a failing run, keeping the same failure (same violated check, or same failure kind):
/// first the scenario's parameters toward their minimums (fewer users and operations), then the
/// swarm's fault kinds one by one, then the preemptions of its decisions log (`DecisionShrinker`).
/// Every candidate is a full deterministic run, so the result replays exactly.
public enum FailureShrinker {
    /// Runs a shrink may spend in all (parameters, faults and decisions together).
    public static let defaultMaxRuns = 300

    /// The smallest failing case found, its artifact (with story) and what shrinking cost.
    public struct Result: Sendable {
        /// The request that reproduces the smallest case.
        public var request: RunRequest
        /// Its run.
        public var execution: ScenarioRunner.Execution
        /// Its artifact, with the shrink summary.
        public var artifact: FailureArtifact
    }

    /// What must stay the same: the violated check, or the failure kind and kernel outcome.
    static func signature(_ report: RunReport) -> String? {
        guard !report.passed else { return nil }
        if let violation = report.violation { return "check:\(violation.check)" }
        return "\(report.failure?.kind.rawValue ?? "?"):\(report.outcome)"
    }

    /// Shrinks `request`, which must fail (the request carries no decisions log: the seed's own
    /// strategy decides until the last phase).
    public static func shrink(_ request: RunRequest, maxRuns: Int = defaultMaxRuns) throws(ScenarioError) -> Result {
        precondition(maxRuns >= 1, "shrinking needs at least one run")
        var current = request
        current.decisions = nil
        current.recordsTrace = false
        let preparedFirst = try ScenarioRunner.prepare(current)
        let scenario = preparedFirst.scenario, resolved = preparedFirst.parameters
        let first = ScenarioRunner.execute(preparedFirst)
        guard let target = signature(first.report) else {
            throw .invalidParameter(name: "seed", value: Int(truncatingIfNeeded: request.seed), reason: "the run passes; nothing to shrink")
        }
        var runs = 1
        var parameters = resolved.values
        // A drawn world's parameters become explicit, so each can move on its own.
        let drawn = (current.world?.parameters ?? [:]).keys.sorted()
        current.world?.parameters = [:]
        current.parameters = parameters

        /// True when `candidate` is valid and still fails the same way.
        func stillFails(_ candidate: RunRequest) -> Bool {
            guard runs < maxRuns, let prepared = try? ScenarioRunner.prepare(candidate) else { return false }
            runs += 1
            return signature(ScenarioRunner.execute(prepared).report) == target
        }

        // 0. A drawn world toward the defaults: what the failure needs, said as a user reads it.
        var needs: [String] = []
        if current.world != nil {
            let outcome = WorldShrinker(scenario: scenario, stillFails: stillFails).shrink(current, drawn: drawn)
            current = outcome.request
            needs = outcome.needs
            parameters = current.parameters
        }

        // 1. Parameters, in declaration order, toward their minimums (min, then halfway).
        for spec in scenario.parameters {
            var value = parameters[spec.name]!
            var progressed = true
            while progressed && value > spec.minimum && runs < maxRuns {
                progressed = false
                for candidateValue in [spec.minimum, spec.minimum + (value - spec.minimum) / 2] where candidateValue < value {
                    var candidate = current
                    candidate.parameters[spec.name] = candidateValue
                    if stillFails(candidate) {
                        value = candidateValue
                        current = candidate
                        progressed = true
                        break
                    }
                }
            }
            parameters[spec.name] = value
        }

        // 2. Fault kinds, one by one.
        let kindsBefore = current.swarm.map { enabled($0, in: scenario) } ?? []
        if let swarm = current.swarm {
            for kind in enabled(swarm, in: scenario) {
                var candidate = current
                candidate.swarm = current.swarm!.without(kind)
                if stillFails(candidate) { current = candidate }
            }
        }

        // 3. Preemptions of the decisions log.
        let shrunk = try ScenarioRunner.prepare(current)
        let baseline = ScenarioRunner.execute(shrunk)
        runs += 1
        precondition(signature(baseline.report) == target, "a kept candidate failed the same way before")
        let box = Mutex<ScenarioContext?>(nil)
        let body = ScenarioRunner.body(shrunk, sink: { context in box.withLock { $0 = context } })
        let decisionOutcome = DecisionShrinker.shrink(
            ScenarioRunner.configuration(current), decisions: baseline.decisions, maxRuns: max(1, maxRuns - runs),
            stillFails: { (result: SimulationResult<Void>) -> Bool in
                guard let context = box.withLock({ $0 }) else { return false }
                if let violation = context.violation { return "check:\(violation.check)" == target }
                return !result.outcome.isSuccess && target.hasSuffix(":\(result.outcome.kind)")
            }, body)
        runs += decisionOutcome.runs

        var replay = shrunk.replaying(decisionOutcome.decisions)
        var final = ScenarioRunner.execute(replay)
        runs += 1
        if signature(final.report) != target {
            // The shrunk log must reproduce; if it ever does not, keep the unshrunk one.
            replay = shrunk.replaying(baseline.decisions)
            final = ScenarioRunner.execute(replay)
        }
        let summary = FailureArtifact.ShrinkSummary(
            parametersBefore: resolved.values, faultKindsBefore: kindsBefore,
            faultKindsAfter: current.swarm.map { enabled($0, in: scenario) } ?? [],
            preemptionsBefore: DecisionShrinker.preemptions(first.decisions),
            preemptionsAfter: DecisionShrinker.preemptions(replay.request.decisions ?? []), runs: runs, needs: needs.isEmpty ? nil : needs)
        var artifact = FailureArtifact(failed: final, request: replay.request, shrink: summary)
        artifact.decisions = replay.request.decisions ?? []
        return Result(request: replay.request, execution: final, artifact: artifact)
    }

    /// The kinds `swarm` has on, in the order the scenario's backend declares them.
    static func enabled(_ swarm: SwarmConfiguration, in scenario: any Scenario) -> [String] {
        scenario.swarmKinds.map(\.name).filter { swarm.rates[$0] != nil }
    }
}
