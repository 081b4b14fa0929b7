/// A run or sweep as JUnit XML (the Jenkins xUnit dialect that Jenkins, GitLab,
/// GitHub test reporters and Azure read): one `<testsuite>` per scenario, one `<testcase>` per
/// check. A violated check is a `<failure>` carrying the failing seeds and the lines that replay
/// them; a check the run never evaluated, or its parameters rule out, is `<skipped>`. No wall
/// times or timestamps: the same run writes the same bytes.
public struct JUnitReport: Sendable {
    /// One test case's verdict.
    public enum Outcome: Sendable, Hashable {
        case passed
        case failed(message: String, type: String, details: String)
        case skipped(message: String)
    }

    /// One `<testcase>`.
    public struct TestCase: Sendable, Hashable {
        /// The `classname` attribute (the scenario).
        public var classname: String
        /// The case's name (the check).
        public var name: String
        /// Passed, failed or skipped.
        public var outcome: Outcome
        /// What the case asserts (the check's summary), as `<system-out>`.
        public var output: String?

        /// A case with every field given.
        public init(classname: String, name: String, outcome: Outcome, output: String?) {
            self.classname = classname; self.name = name; self.outcome = outcome; self.output = output
        }
    }

    /// One `<testsuite>`.
    public struct Suite: Sendable {
        /// The suite's name.
        public var name: String
        /// `<properties>`: seed, strategy, variant, replay line.
        public var properties: [(name: String, value: String)]
        /// Its test cases, one per check.
        public var cases: [TestCase]

        /// A suite with every field given.
        public init(name: String, properties: [(name: String, value: String)], cases: [TestCase]) {
            self.name = name; self.properties = properties; self.cases = cases
        }
    }

    /// The `<testsuites>` name.
    public var name: String
    /// Its suites.
    public var suites: [Suite]

    /// A report of `suites`.
    public init(name: String, suites: [Suite]) {
        self.name = name; self.suites = suites
    }

    /// Failed cases over all suites.
    public var failures: Int { suites.reduce(0) { $0 + $1.cases.filter { if case .failed = $0.outcome { true } else { false } }.count } }
    /// Skipped cases over all suites.
    public var skipped: Int { suites.reduce(0) { $0 + $1.cases.filter { if case .skipped = $0.outcome { true } else { false } }.count } }
    /// Cases over all suites.
    public var tests: Int { suites.reduce(0) { $0 + $1.cases.count } }

    // MARK: Run

    /// The report of one run written to `folder`: a case per check, per threshold, and the
    /// kernel outcome.
    public static func run(_ report: RunReport, folder: String) -> JUnitReport {
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
    public var xml: String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(Self.escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for suite in suites {
            let failed = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }.count
            let skipped = suite.cases.filter { if case .skipped = $0.outcome { true } else { false } }.count
            out += "  <testsuite name=\"\(Self.escape(suite.name))\" tests=\"\(suite.cases.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\" package=\"rehearse\">\n"
            if !suite.properties.isEmpty {
                out += "    <properties>\n"
                for property in suite.properties {
                    out += "      <property name=\"\(Self.escape(property.name))\" value=\"\(Self.escape(property.value))\"/>\n"
                }
                out += "    </properties>\n"
            }
            for testCase in suite.cases {
                out += "    <testcase classname=\"\(Self.escape(testCase.classname))\" name=\"\(Self.escape(testCase.name))\""
                var body = ""
                switch testCase.outcome {
                case .passed: break
                case .failed(let message, let type, let details):
                    body += "      <failure message=\"\(Self.escape(message))\" type=\"\(Self.escape(type))\">\(Self.escape(details, attribute: false))</failure>\n"
                case .skipped(let message):
                    body += "      <skipped message=\"\(Self.escape(message))\"/>\n"
                }
                if let output = testCase.output { body += "      <system-out>\(Self.escape(output, attribute: false))</system-out>\n" }
                out += body.isEmpty ? "/>\n" : ">\n\(body)    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Writes the document to `path` through the atomic writer.
    public func write(to path: String) throws(ReportWriteError) {
        try ReportWriter.writeAtomically(xml, to: path)
    }

    /// `text` escaped for an XML attribute (tab, newline and carriage return as character
    /// references, which a parser keeps) or element content; characters XML 1.0 cannot hold (control
    /// characters other than tab, newline, carriage return) become U+FFFD.
    static func escape(_ text: String, attribute: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // In an attribute a parser would fold them into spaces: written as references there.
            case "\t": out += attribute ? "&#9;" : "\t"
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\r": out += attribute ? "&#13;" : "\r"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
