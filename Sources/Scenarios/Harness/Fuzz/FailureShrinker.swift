import Sim
import Synchronization

/// Minimises a failing run, keeping the same failure (same violated check, or same failure kind):
/// first the scenario's parameters toward their minimums (fewer users and operations), then the
/// swarm's fault kinds one by one, then the preemptions of its decisions log (`DecisionShrinker`).
/// Every candidate is a full deterministic run, so the result replays exactly.
public enum FailureShrinker {
    /// Runs a shrink may spend in all (parameters, faults and decisions together).
    public static let defaultMaxRuns = 300
    /// Schedules the search for fewer preemptions judges after the decisions shrink (`ScheduleSearch`).
    public static let defaultScheduleBudget = 300

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
    public static func shrink(
        _ request: RunRequest, maxRuns: Int = defaultMaxRuns, scheduleBudget: Int = defaultScheduleBudget,
        verificationSeeds: Int = defaultVerificationSeeds
    ) throws(ScenarioError) -> Result {
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
        let budget = Budget(target: target, maxRuns: maxRuns)
        var parameters = resolved.values
        // A drawn world's parameters become explicit, so each can move on its own.
        let drawn = (current.world?.parameters ?? [:]).keys.sorted()
        current.world?.parameters = [:]
        current.parameters = parameters

        // 0. A drawn world toward the defaults: what the failure needs, said as a user reads it.
        var needs: [String] = []
        if current.world != nil {
            var shrinker = WorldShrinker(scenario: scenario, stillFails: budget.stillFails)
            shrinker.verificationSeeds = verificationSeeds
            shrinker.refutingSeed = { relaxed in refutingSeed(relaxed, target: budget.target, seeds: verificationSeeds) }
            let outcome = shrinker.shrink(current, drawn: drawn)
            current = outcome.request
            needs = outcome.needs
            parameters = current.parameters
        }
        shrinkParameters(&current, parameters: &parameters, scenario: scenario, budget: budget)
        let localMinimum = descendToLocalMinimum(&current, parameters: &parameters, scenario: scenario, budget: budget)
        let kindsBefore = current.swarm.map { enabled($0, in: scenario) } ?? []
        shrinkFaultKinds(&current, scenario: scenario, budget: budget)
        var (replay, final) = try shrinkDecisions(current, budget: budget)
        let search = try searchFewerPreemptions(current, &replay, &final, target: budget.target, scheduleBudget: scheduleBudget)
        var summary = FailureArtifact.ShrinkSummary(
            parametersBefore: resolved.values, faultKindsBefore: kindsBefore,
            faultKindsAfter: current.swarm.map { enabled($0, in: scenario) } ?? [],
            preemptionsBefore: DecisionShrinker.preemptions(first.decisions),
            preemptionsAfter: DecisionShrinker.preemptions(replay.request.decisions ?? []), runs: budget.runs, needs: needs.isEmpty ? nil : needs)
        summary.scheduleSearch = search
        summary.parametersLocalMinimum = localMinimum
        var artifact = FailureArtifact(failed: final, request: replay.request, shrink: summary)
        artifact.decisions = replay.request.decisions ?? []
        return Result(request: replay.request, execution: final, artifact: artifact)
    }

    /// Other seeds a world statement ("needs honors >= 2") is checked on before it is printed.
    public static let defaultVerificationSeeds = 8

    /// The first of `seeds` other seeds (after `relaxed`'s own) on which `relaxed` still fails as
    /// `target` says, under the request's own strategy; nil when every one passes.
    private static func refutingSeed(_ relaxed: RunRequest, target: String, seeds: Int) -> UInt64? {
        for offset in 1...UInt64(max(1, seeds)) {
            var other = relaxed
            other.seed = relaxed.seed &+ offset
            other.decisions = nil
            guard let prepared = try? ScenarioRunner.prepare(other) else { continue }
            if signature(ScenarioRunner.execute(prepared).report) == target { return other.seed }
        }
        return nil
    }

    /// Phase 4: every schedule with fewer preemptions than the shrunk log's, in rounds of 0, 1, …
    /// (`ScheduleSearch`); a failing one found replaces the replay. A livelock is not searched.
    private static func searchFewerPreemptions(
        _ current: RunRequest, _ replay: inout PreparedRun, _ final: inout ScenarioRunner.Execution, target: String, scheduleBudget: Int
    ) throws(ScenarioError) -> ScheduleSearch {
        if target.hasSuffix(":\(SimulationOutcome.stepLimit(running: []).kind)") {
            return .notSearched("a livelock: the step limit ends it whatever the schedule")
        }
        let prepared = try ScenarioRunner.prepare(current)
        let found = ScheduleSearch.search(
            prepared, preemptions: DecisionShrinker.preemptions(replay.request.decisions ?? []), budget: scheduleBudget,
            fails: { signature($0) == target })
        guard let decisions = found.decisions else { return found.search }
        let candidate = prepared.replaying(decisions)
        let execution = ScenarioRunner.execute(candidate)
        guard signature(execution.report) == target else { return .notSearched("the schedule the search found did not fail again when replayed") }
        replay = candidate
        final = execution
        return found.search
    }

    /// The runs a shrink has spent and may still spend, and the failure every candidate must keep.
    private final class Budget {
        let target: String
        let maxRuns: Int
        /// The first run counts.
        var runs = 1

        init(target: String, maxRuns: Int) {
            self.target = target
            self.maxRuns = maxRuns
        }

        /// True when `candidate` is valid and still fails the same way.
        func stillFails(_ candidate: RunRequest) -> Bool {
            guard runs < maxRuns, let prepared = try? ScenarioRunner.prepare(candidate) else { return false }
            runs += 1
            return signature(ScenarioRunner.execute(prepared).report) == target
        }
    }

    /// Phase 1: parameters, in declaration order, toward their minimums (min, then halfway).
    private static func shrinkParameters(
        _ current: inout RunRequest, parameters: inout [String: Int], scenario: any Scenario, budget: Budget
    ) {
        for spec in scenario.parameters {
            var value = parameters[spec.name]!
            var progressed = true
            while progressed && value > spec.minimum && budget.runs < budget.maxRuns {
                progressed = false
                for candidateValue in [spec.minimum, spec.minimum + (value - spec.minimum) / 2] where candidateValue < value {
                    var candidate = current
                    candidate.parameters[spec.name] = candidateValue
                    if budget.stillFails(candidate) {
                        value = candidateValue
                        current = candidate
                        progressed = true
                        break
                    }
                }
            }
            parameters[spec.name] = value
        }
    }

    /// Phase 1b: single steps down until none still fails (the halving of phase 1 can stop above
    /// a value one step lower that fails, and a parameter shrunk later can let an earlier one go
    /// lower). True at a local minimum, false when the budget ran out first.
    private static func descendToLocalMinimum(
        _ current: inout RunRequest, parameters: inout [String: Int], scenario: any Scenario, budget: Budget
    ) -> Bool {
        var stepped = true
        while stepped {
            stepped = false
            for spec in scenario.parameters where parameters[spec.name]! > spec.minimum {
                guard budget.runs < budget.maxRuns else { return false }
                var candidate = current
                candidate.parameters[spec.name] = parameters[spec.name]! - 1
                if budget.stillFails(candidate) {
                    current = candidate
                    parameters[spec.name]! -= 1
                    stepped = true
                }
            }
        }
        return true
    }

    /// Phase 2: the swarm's fault kinds, one by one.
    private static func shrinkFaultKinds(_ current: inout RunRequest, scenario: any Scenario, budget: Budget) {
        guard let swarm = current.swarm else { return }
        for kind in enabled(swarm, in: scenario) {
            var candidate = current
            candidate.swarm = current.swarm!.without(kind)
            if budget.stillFails(candidate) { current = candidate }
        }
    }

    /// Phase 3: the preemptions of the decisions log; returns the replay and its run (the unshrunk
    /// log's if the shrunk one ever fails to reproduce).
    private static func shrinkDecisions(
        _ current: RunRequest, budget: Budget
    ) throws(ScenarioError) -> (replay: PreparedRun, final: ScenarioRunner.Execution) {
        let target = budget.target
        let shrunk = try ScenarioRunner.prepare(current)
        let baseline = ScenarioRunner.execute(shrunk)
        budget.runs += 1
        precondition(signature(baseline.report) == target, "a kept candidate failed the same way before")
        let box = Mutex<ScenarioContext?>(nil)
        let body = ScenarioRunner.body(shrunk, sink: { context in box.withLock { $0 = context } })
        // A livelock is the finding whatever the schedule (the step limit ends it either way):
        // its schedule is kept as found, not shrunk run after run of a million steps.
        let isLivelock = target.hasSuffix(":\(SimulationOutcome.stepLimit(running: []).kind)")
        let decisionOutcome = isLivelock ? DecisionShrinker.Outcome.asFound(baseline.decisions) : DecisionShrinker.shrink(
            ScenarioRunner.configuration(current), decisions: baseline.decisions, maxRuns: max(1, budget.maxRuns - budget.runs),
            stillFails: { (result: SimulationResult<Void>) -> Bool in
                guard let context = box.withLock({ $0 }) else { return false }
                if let violation = context.violation { return "check:\(violation.check)" == target }
                return !result.outcome.isSuccess && target.hasSuffix(":\(result.outcome.kind)")
            }, body)
        budget.runs += decisionOutcome.runs

        var replay = shrunk.replaying(decisionOutcome.decisions)
        var final = ScenarioRunner.execute(replay)
        budget.runs += 1
        if signature(final.report) != target {
            // The shrunk log must reproduce; if it ever does not, keep the unshrunk one.
            replay = shrunk.replaying(baseline.decisions)
            final = ScenarioRunner.execute(replay)
        }
        return (replay, final)
    }

    /// The kinds `swarm` has on, in the order the scenario's backend declares them.
    static func enabled(_ swarm: SwarmConfiguration, in scenario: any Scenario) -> [String] {
        scenario.swarmKinds.map(\.name).filter { swarm.rates[$0] != nil }
    }
}
