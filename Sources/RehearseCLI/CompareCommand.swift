import ArgumentParser
import Scenarios

extension Rehearse {
    /// `rehearse compare a.json b.json`: verdicts and latency percentiles side by side.
    struct CompareCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "compare", abstract: "Compare two report.json files.")

        @Argument(help: "Baseline report.json.") var baseline: String
        @Argument(help: "Candidate report.json.") var candidate: String

        func run() throws {
            let a: RunReport, b: RunReport
            do {
                a = try ReportWriter.read(baseline)
                b = try ReportWriter.read(candidate)
            } catch {
                throw InputError.fail(error.description)
            }
            print("baseline  \(a.runId): \(a.passed ? "PASS" : "FAIL") trace \(a.traceHash)")
            print("candidate \(b.runId): \(b.passed ? "PASS" : "FAIL") trace \(b.traceHash)")
            let operations = Set(a.latency.map(\.operation)).union(b.latency.map(\.operation)).sorted()
            for operation in operations {
                let left = a.latency.first { $0.operation == operation }, right = b.latency.first { $0.operation == operation }
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

import Foundation
