extension JUnitReport {
    /// The report of a sweep (`fuzz`) or a merged distributed sweep (`merge`): a case per check
    /// over all seeds, per threshold, per failure kind that is not a check's, plus coverage and
    /// the fault verdict. `command` names the tool (`rehearse fuzz`, `rehearse merge`).
    package static func sweep(_ result: SweepResult, command: String) -> JUnitReport {
        let scenario = result.scenario
        var cases = SweepCases(result)
        cases.addChecks()
        cases.addGoals()
        cases.addThresholds()
        cases.addFailureKinds()
        cases.addCoverage()
        cases.addFaults()
        var properties: [(name: String, value: String)] = [
            ("seeds", result.ranges.map(\.description).joined(separator: ", ")), ("seedsRun", "\(result.seedsRun)"),
            ("seedsPassed", "\(result.seedsPassed)"), ("strategy", result.strategy), ("variant", result.variant ?? "careful"),
            ("swarm", result.swarm ? "on" : "off"), ("build", result.build.description),
        ]
        if let shard = result.shard { properties.append(("shard", shard)) }
        properties += result.parameters.keys.sorted().map { ("param.\($0)", "\(result.parameters[$0]!)") }
        return JUnitReport(name: "\(command) \(scenario)", suites: [Suite(name: scenario, properties: properties, cases: cases.cases)])
    }

    /// The line that replays one failing seed: its artifact, else the `run` line of its seed.
    static func replayLine(_ failure: SweepFailure, result: SweepResult) -> String {
        if let artifact = failure.artifact { return "\(ScenarioRegistry.commandName) replay \(artifact)" }
        return result.runCommandLine(seed: failure.seed).description
    }

    /// A sweep's test cases, added in the report's order; the seeds a failed case names are
    /// claimed, so "other failures" lists only the rest.
    private struct SweepCases {
        let result: SweepResult
        let scenario: String
        /// Each check's summary, by name.
        let summaries: [String: String]
        /// Why the parameters rule a check or goal out, by name.
        let unreachable: [String: String]
        var claimed = Set<UInt64>()
        var cases: [TestCase] = []

        init(_ result: SweepResult) {
            self.result = result
            scenario = result.scenario
            summaries = Dictionary((try? ScenarioRegistry.scenario(named: scenario))?.checks.map { ($0.name, $0.summary) } ?? [], uniquingKeysWith: { a, _ in a })
            unreachable = Dictionary(result.unreachable.map { ($0.name, $0.reason) }, uniquingKeysWith: { a, _ in a })
        }

        /// A failed case naming `failures`' seeds (the first 20) and their replay lines.
        mutating func failedCase(_ failures: [SweepFailure], what: String, type: String) -> Outcome {
            for failure in failures { claimed.insert(failure.seed) }
            let seeds = failures.prefix(20).map { "\($0.seed)" }.joined(separator: ", ") + (failures.count > 20 ? ", …" : "")
            let details = failures.flatMap { failure in
                ["seed \(failure.seed): \(failure.kind): \(failure.message)", "  replay: \(replayLine(failure, result: result))"]
            }
            return .failed(message: "\(what) on \(failures.count) of \(result.seedsRun) seeds: \(seeds)", type: type, details: details.joined(separator: "\n"))
        }

        /// One case per Always check: violated, unreachable, never checked, or passed.
        mutating func addChecks() {
            for check in result.checks {
                let failing = result.failures.filter { $0.check == check && $0.kind == .invariant }
                let outcome: Outcome
                if !failing.isEmpty {
                    outcome = failedCase(failing, what: "violated", type: "invariant")
                } else if let reason = unreachable[check] {
                    outcome = .skipped(message: "unreachable under these parameters: \(reason)")
                } else if !result.checked.contains(check) {
                    outcome = .skipped(message: "not checked: no seed evaluated it (this fails the sweep: see coverage)")
                } else {
                    outcome = .passed
                }
                cases.append(TestCase(classname: "\(scenario).check", name: check, outcome: outcome, output: summaries[check]))
            }
        }

        /// One case per Sometimes goal: reached, unreachable, or never reached.
        mutating func addGoals() {
            for goal in result.goals {
                let outcome: Outcome
                if result.reached.contains(goal) {
                    outcome = .passed
                } else if let reason = unreachable[goal] {
                    outcome = .skipped(message: "unreachable under these parameters: \(reason)")
                } else {
                    outcome = .failed(message: "Sometimes goal never reached over \(result.seedsRun) seeds", type: "sometimes",
                                      details: "no seed of \(result.ranges.map(\.description).joined(separator: ", ")) reached it")
                }
                cases.append(TestCase(classname: "\(scenario).sometimes", name: goal, outcome: outcome, output: summaries[goal]))
            }
        }

        /// One case per threshold judged per seed, then per threshold judged over the merged sweep.
        mutating func addThresholds() {
            for expression in result.thresholds ?? [] {
                let failing = result.failures.filter { $0.kind == .threshold && $0.message.contains("threshold \(expression) missed") }
                cases.append(TestCase(classname: "\(scenario).threshold", name: expression,
                                      outcome: failing.isEmpty ? .passed : failedCase(failing, what: "missed", type: "threshold"), output: "per seed"))
            }
            for threshold in result.mergeThresholds ?? [] {
                let observed = threshold.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
                let outcome: Outcome = threshold.passed ? .passed : .failed(
                    message: "threshold \(threshold.expression) missed over the merged sweep (observed \(observed))", type: "threshold",
                    details: "evaluated over the merged histograms of \(result.seedsRun) seeds")
                cases.append(TestCase(classname: "\(scenario).merged-threshold", name: threshold.expression, outcome: outcome, output: "over all seeds"))
            }
        }

        /// One case per failure kind that is not a check's, then one for failures no case claimed.
        mutating func addFailureKinds() {
            for kind: FailureKind in [.kernel, .harness, .crash, .nondeterminism] {
                let failing = result.failures.filter { $0.kind == kind }
                var outcome: Outcome = failing.isEmpty ? .passed : failedCase(failing, what: kind.rawValue, type: kind.rawValue)
                if kind == .nondeterminism, failing.isEmpty, result.determinismChecked.isEmpty {
                    outcome = .skipped(message: "no seed was run twice (--determinism-every 0, or too few seeds)")
                }
                cases.append(TestCase(classname: "\(scenario).sweep", name: kind.rawValue, outcome: outcome, output: nil))
            }
            let others = result.failures.filter { !claimed.contains($0.seed) }
            if !others.isEmpty {
                cases.append(TestCase(classname: "\(scenario).sweep", name: "other failures", outcome: failedCase(others, what: "failed", type: "failure"), output: nil))
            }
        }

        /// The coverage case: fails on a goal never reached or a check never evaluated.
        mutating func addCoverage() {
            let gaps = result.unreachedGoals.map { "Sometimes goal never reached: \($0)" } + result.neverChecked.map { "never evaluated: \($0)" }
            cases.append(TestCase(classname: "\(scenario).sweep", name: "coverage",
                                  outcome: gaps.isEmpty ? .passed : .failed(message: gaps.joined(separator: "; "), type: "coverage", details: result.coverageSummary),
                                  output: nil))
        }

        /// The faults case: fails when a fault count is off its expectation.
        mutating func addFaults() {
            let off = result.offFaults
            let faults: Outcome
            if (result.faults ?? []).isEmpty {
                faults = .skipped(message: "no fault kind was drawn")
            } else if off.isEmpty {
                faults = .passed
            } else {
                faults = .failed(message: "fault counts off their expectation: " + off.map(\.summary).joined(separator: ", "),
                                 type: "faults", details: (result.faults ?? []).map(\.summary).joined(separator: "\n"))
            }
            cases.append(TestCase(classname: "\(scenario).sweep", name: "faults delivered", outcome: faults, output: nil))
        }
    }
}
