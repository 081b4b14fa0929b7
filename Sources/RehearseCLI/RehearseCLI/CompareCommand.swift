import ArgumentParser
import Foundation
import Harness

extension Rehearse {
    /// `rehearse compare a.json b.json`: two reports side by side. `rehearse compare <scenario>
    /// --variant V <load options>`: the careful design and variant V under the same load profile
    /// in virtual time, a diff that is the same on every run of the same command.
    struct CompareCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare", abstract: "Compare two report.json files, or two designs under the same load profile in virtual time.",
            discussion: """
                rehearse compare baseline.json candidate.json
                rehearse compare auction-race --variant outbid-no-dedup --rate 500/s --duration 1m [--seed N]
                The second form runs the scenario's load profile on the simulator (--virtual is implied) for the \
                careful design and for the variant, writes both reports, and prints the differences.
                """)

        @Argument(help: "Baseline report.json, or a scenario with a load profile (with --variant).") var baseline: String
        @Argument(help: "Candidate report.json (not with --variant).") var candidate: String?
        @Option(name: .long, parsing: .unconditional, help: "Load comparison: the variant to compare with the careful design.")
        var variant: String?
        @OptionGroup var load: LoadOptions
        @Option(name: .long, parsing: .unconditional, help: "Load comparison: folder for the two reports.")
        var reportDir: String = "reports"

        func run() throws {
            if let variant {
                guard candidate == nil else { throw InputError.fail("compare <scenario> --variant V takes one scenario, not a second report") }
                try ReportDirectory.check(reportDir)
                var careful = try load.request(scenario: baseline, variant: nil)
                careful.clock = .virtual
                var candidate = try load.request(scenario: baseline, variant: variant)
                candidate.clock = .virtual
                let a = LoadRunner.runVirtual(careful), b = LoadRunner.runVirtual(candidate)
                let folderA = try ReportWriter.write(a, trace: [], to: reportDir), folderB = try ReportWriter.write(b, trace: [], to: reportDir)
                print("compare \(baseline) under \(careful.modelDescription), virtual time, seed \(careful.seed): careful vs \(variant)")
                Self.printDiff(a, b)
                print("  reports: \(folderA)/report.md, \(folderB)/report.md")
                return
            }
            guard let candidate else { throw InputError.fail("give two report.json files, or a scenario with --variant V and load options") }
            let a: RunReport, b: RunReport
            do {
                a = try ReportWriter.read(baseline)
                b = try ReportWriter.read(candidate)
            } catch {
                throw InputError.fail(error.description)
            }
            Self.printDiff(a, b)
        }

        /// Verdicts, load counters and latency percentiles of `a` → `b` (deterministic text).
        static func printDiff(_ a: RunReport, _ b: RunReport) {
            print("baseline  \(a.runId): \(a.passed ? "PASS" : "FAIL") trace \(a.traceHash)")
            print("candidate \(b.runId): \(b.passed ? "PASS" : "FAIL") trace \(b.traceHash)")
            if let x = a.load, let y = b.load {
                func row(_ name: String, _ left: Double, _ right: Double, _ format: String = "%.0f") {
                    let change = left != 0 ? String(format: " (%+.1f%%)", (right - left) / left * 100) : ""
                    print("  \(name): \(String(format: format, left)) → \(String(format: format, right))\(change)")
                }
                row("iterations completed", Double(x.iterationsCompleted), Double(y.iterationsCompleted))
                row("dropped iterations", Double(x.droppedIterations), Double(y.droppedIterations))
                row("failed operations", Double(x.errors.values.reduce(0, +)), Double(y.errors.values.reduce(0, +)))
                row("throughput /s", x.throughputPerSecond, y.throughputPerSecond, "%.1f")
                row("peak in flight", Double(x.peakInFlight), Double(y.peakInFlight))
            }
            let operations = Set(a.latency.map(\.operation)).union(b.latency.map(\.operation)).sorted()
            for operation in operations {
                let left = a.latency.first { $0.operation == operation }, right = b.latency.first { $0.operation == operation }
                print("  \(operation).count: \(left.map { String($0.count) } ?? "-") → \(right.map { String($0.count) } ?? "-")")
                for statistic in Threshold.Statistic.allCases {
                    let x = left?.value(of: statistic), y = right?.value(of: statistic)
                    var change = ""
                    if let x, let y, x > 0 { change = String(format: " (%+.1f%%)", (Double(y) - Double(x)) / Double(x) * 100) }
                    print("  \(operation).\(statistic.rawValue): \(x.map(ReportFormat.duration) ?? "-") → \(y.map(ReportFormat.duration) ?? "-")\(change)")
                }
            }
        }
    }
}
