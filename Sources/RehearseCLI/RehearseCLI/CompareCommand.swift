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
                rehearse compare auction-race --backend emulator --rate 30/s --duration 10s [--variant V]
                The second form runs the scenario's load profile on the simulator (--virtual is implied) for the \
                careful design and for the variant, writes both reports, and prints the differences. The third runs \
                the same workload (of the careful design, or of --variant V) on the simulated Firebase (virtual time) and \
                against the real server, and prints them side by side, checks included: verdicts that differ are a \
                fidelity bug of the simulation (exit 1).
                """)

        @Argument(help: "Baseline report.json, or a scenario with a load profile (with --variant).") var baseline: String
        @Argument(help: "Candidate report.json (not with --variant).") var candidate: String?
        @Option(name: .long, parsing: .unconditional, help: "Load comparison: the variant to compare with the careful design (with --backend: the design run on both).")
        var variant: String?
        @OptionGroup var load: LoadOptions
        @Option(name: .long, parsing: .unconditional, help: "Load comparison: folder for the two reports.")
        var reportDir: String = "reports"

        func run() throws {
            if candidate == nil, load.backend != "simulated" { return try compareWithServer() }
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

        /// The same workload on the simulated Firebase (virtual time, by seed) and on the real server
        /// `--backend` names; verdicts that differ are a fidelity bug (exit 1).
        func compareWithServer() throws {
            try ReportDirectory.check(reportDir)
            if load.virtual { throw InputError.fail("compare --backend runs the simulated side in virtual time itself; drop --virtual") }
            var real = try load.request(scenario: baseline, variant: variant)
            guard let profile = LoadProfile.named(real.scenario), let choice = try load.serverChoice(for: profile) else {
                throw InputError.fail("compare --backend needs a real server, e.g. --backend emulator")
            }
            real.backend = choice.name
            var simulated = real
            simulated.clock = .virtual
            simulated.backend = nil
            let server = try LoadCommand.start(choice)
            let a = LoadRunner.runVirtual(simulated)
            let b = LoadCommand.execute(real, server: server)
            BlockingWait.run { await server.stop() }
            let folderA = try ReportWriter.write(a, trace: [], to: reportDir), folderB = try ReportWriter.write(b, trace: [], to: reportDir)
            print("compare \(baseline) under \(real.modelDescription): the simulated Firebase (virtual time, seed \(real.seed)) vs \(server.name)")
            Self.printDiff(a, b)
            print("  reports: \(folderA)/report.md, \(folderB)/report.md")
            if a.passed != b.passed {
                print("FIDELITY: the verdicts differ (simulated \(a.passed ? "PASS" : "FAIL"), server \(b.passed ? "PASS" : "FAIL")): \(b.failure?.message ?? a.failure?.message ?? "")")
                throw ExitCode(1)
            }
            print("verdicts equal: \(a.passed ? "PASS" : "FAIL") on both")
        }

        /// Verdicts, load counters and latency percentiles of `a` → `b` (deterministic text).
        static func printDiff(_ a: RunReport, _ b: RunReport) {
            print("baseline  \(a.runId): \(a.passed ? "PASS" : "FAIL") trace \(a.traceHash)")
            print("candidate \(b.runId): \(b.passed ? "PASS" : "FAIL") trace \(b.traceHash)")
            for check in a.checks {
                guard let other = b.checks.first(where: { $0.name == check.name }) else { continue }
                print("  check \(check.name): \(check.status) → \(other.status)\(check.status == other.status ? "" : " (differs)")")
            }
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
