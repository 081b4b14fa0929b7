/// A run or sweep as JUnit XML (the Jenkins xUnit dialect that Jenkins, GitLab,
/// GitHub test reporters and Azure read): one `<testsuite>` per scenario, one `<testcase>` per
/// check. A violated check is a `<failure>` carrying the failing seeds and the lines that replay
/// them; a check the run never evaluated, or its parameters rule out, is `<skipped>`. No wall
/// times or timestamps: the same run writes the same bytes.
package struct JUnitReport: Sendable {
    /// One test case's verdict.
    package enum Outcome: Sendable, Hashable {
        case passed
        case failed(message: String, type: String, details: String)
        case skipped(message: String)
    }

    /// One `<testcase>`.
    package struct TestCase: Sendable, Hashable {
        /// The `classname` attribute (the scenario).
        package var classname: String
        /// The case's name (the check).
        package var name: String
        /// Passed, failed or skipped.
        package var outcome: Outcome
        /// What the case asserts (the check's summary), as `<system-out>`.
        package var output: String?

        /// A case with every field given.
        package init(classname: String, name: String, outcome: Outcome, output: String?) {
            self.classname = classname; self.name = name; self.outcome = outcome; self.output = output
        }
    }

    /// One `<testsuite>`.
    package struct Suite: Sendable {
        /// The suite's name.
        package var name: String
        /// `<properties>`: seed, strategy, variant, replay line.
        package var properties: [(name: String, value: String)]
        /// Its test cases, one per check.
        package var cases: [TestCase]

        /// A suite with every field given.
        package init(name: String, properties: [(name: String, value: String)], cases: [TestCase]) {
            self.name = name; self.properties = properties; self.cases = cases
        }
    }

    /// The `<testsuites>` name.
    package var name: String
    /// Its suites.
    package var suites: [Suite]

    /// A report of `suites`.
    package init(name: String, suites: [Suite]) {
        self.name = name; self.suites = suites
    }

    /// Failed cases over all suites.
    package var failures: Int { suites.reduce(0) { $0 + $1.cases.filter { if case .failed = $0.outcome { true } else { false } }.count } }
    /// Skipped cases over all suites.
    package var skipped: Int { suites.reduce(0) { $0 + $1.cases.filter { if case .skipped = $0.outcome { true } else { false } }.count } }
    /// Cases over all suites.
    package var tests: Int { suites.reduce(0) { $0 + $1.cases.count } }

    // MARK: Run

    /// The report of one run written to `folder`: a case per check, per threshold, and the
    /// kernel outcome.
    package static func run(_ report: RunReport, folder: String) -> JUnitReport {
        let scenario = report.scenario
        let replay = ["replay: \(ScenarioRegistry.commandName) replay \(folder)/report.json", "   or: \(report.replayCommand)"]
        var cases: [TestCase] = []
        for check in report.checks {
            let outcome: Outcome
            switch check.status {
            case .passed, .reached: outcome = .passed
            case .violated:
                let violation = report.violation
                let message = violation.map { "\($0.message) (step \($0.step))" } ?? (report.failure?.message ?? "violated")
                let details = ["seed \(report.seed): \(check.name) violated: \(message)"]
                    + (violation.map { ["at step \($0.step), virtual time \(ReportFormat.duration($0.virtualNanoseconds))"] } ?? []) + replay
                outcome = .failed(message: message, type: check.kind.rawValue, details: details.joined(separator: "\n"))
            case .unreachable: outcome = .skipped(message: "unreachable under these parameters: \(check.unreachableReason ?? "")")
            case .notReached: outcome = .skipped(message: "not reached in this run (a Sometimes goal is judged over a sweep)")
            case .notChecked: outcome = .skipped(message: "not checked: this run never evaluated it")
            }
            cases.append(TestCase(classname: "\(scenario).\(check.kind.rawValue)", name: check.name, outcome: outcome, output: check.summary))
        }
        for threshold in report.thresholds {
            let observed = threshold.observedNanoseconds.map { ReportFormat.duration($0) } ?? "no samples"
            let outcome: Outcome = threshold.passed ? .passed : .failed(
                message: "threshold \(threshold.expression) missed (observed \(observed))", type: "threshold",
                details: (["seed \(report.seed): threshold \(threshold.expression) missed (observed \(observed))"] + replay).joined(separator: "\n"))
            cases.append(TestCase(classname: "\(scenario).threshold", name: threshold.expression, outcome: outcome, output: nil))
        }
        let outcome: Outcome
        if let failure = report.failure, failure.kind != .invariant, failure.kind != .threshold {
            outcome = .failed(message: failure.message, type: failure.kind.rawValue,
                              details: (["seed \(report.seed): \(failure.kind): \(failure.message)"] + replay).joined(separator: "\n"))
        } else {
            outcome = .passed
        }
        cases.append(TestCase(classname: "\(scenario).run", name: "outcome", outcome: outcome, output: "kernel outcome: \(report.outcomeDetail)"))
        var properties: [(name: String, value: String)] = [
            ("seed", "\(report.seed)"), ("strategy", report.strategy), ("variant", report.variant ?? "careful"),
            ("steps", "\(report.steps)"), ("virtualNanoseconds", "\(report.virtualNanoseconds)"), ("traceHash", report.traceHash),
            ("build", report.build.description), ("replayCommand", report.replayCommand), ("report", "\(folder)/report.json"),
        ]
        properties += report.parameters.keys.sorted().map { ("param.\($0)", "\(report.parameters[$0]!)") }
        return JUnitReport(name: "\(ScenarioRegistry.commandName) run \(scenario) seed \(report.seed)", suites: [Suite(name: scenario, properties: properties, cases: cases)])
    }

    // MARK: XML

    /// The document, UTF-8 XML 1.0.
    package var xml: String {
        let a = { ReportFormat.escape($0, for: .xmlAttribute) }, t = { ReportFormat.escape($0, for: .xmlContent) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(a(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let failed = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }.count
            let skipped = suite.cases.filter { if case .skipped = $0.outcome { true } else { false } }.count
            out += "  <testsuite name=\"\(a(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\" package=\"rehearse\">\n"
            if !suite.properties.isEmpty {
                out += "    <properties>\n"
                for property in suite.properties {
                    out += "      <property name=\"\(a(property.name))\" value=\"\(a(property.value))\"/>\n"
                }
                out += "    </properties>\n"
            }
            for testCase in suite.cases {
                out += "    <testcase classname=\"\(a(testCase.classname))\" name=\"\(a(testCase.name))\""
                var body = ""
                switch testCase.outcome {
                case .passed: break
                case .failed(let message, let type, let details):
                    body += "      <failure message=\"\(a(message))\" type=\"\(a(type))\">\(t(details))</failure>\n"
                case .skipped(let message):
                    body += "      <skipped message=\"\(a(message))\"/>\n"
                }
                if let output = testCase.output { body += "      <system-out>\(t(output))</system-out>\n" }
                out += body.isEmpty ? "/>\n" : ">\n\(body)    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Writes the document to `path` through the atomic writer.
    package func write(to path: String) throws(ReportWriteError) {
        try ReportWriter.writeAtomically(xml, to: path)
    }
}
