import ArgumentParser
import Foundation
import Harness
import Sim

extension Rehearse {
    /// `rehearse explore <scenario>`: every schedule of one seed's run with at most k preemptions,
    /// the cheapest first; exit 0 when all passed, 1 with a replayable artifact on a failure.
    struct ExploreCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explore", abstract: "Run every schedule of one seed with at most k preemptions (exhaustive, bounded).",
            discussion: """
                The seed, parameters, variant and world stay fixed; the schedule is enumerated: every run with at most k \
                non-default scheduling decisions (a preemption, a delayed job, a later timer first), fewest first, so a \
                failure found has the fewest preemptions any failure has. Practical for k ≤ 1 on scenarios and small \
                parameters; docs/test-your-own-actors.md says where it stops. Exit 0: every schedule passed (or the \
                limit was reached without --require-complete); 1: a failure (replay its artifact) or an incomplete \
                search with --require-complete; 2: bad input.
                """)

        @Argument(help: "Scenario name (see `rehearse list`).")
        var scenario: String
        @Option(name: .long, parsing: .unconditional, help: "Seed whose data and fault dice stay fixed (0...\(UInt64.max)).", transform: Limits.seed)
        var seed: UInt64 = 1
        @Option(name: .long, parsing: .unconditional, help: "Most preemptions a schedule may have (0...\(Limits.preemptionBound.upperBound)).")
        var preemptionBound: Int = 1
        @Option(name: .long, parsing: .unconditional, help: "Most schedules to judge (1...\(Limits.exploreSchedules.upperBound)).")
        var maxSchedules: Int = 10_000
        @Option(name: .long, parsing: .unconditional, help: "Threads searching at once (1...\(Limits.jobs.upperBound)); the same schedules and first failure as one.")
        var jobs: Int = 1
        @Flag(name: .long, help: "Exit 1 when the limit stops the search before every schedule within the bound ran.")
        var requireComplete = false
        @OptionGroup var options: RunOptions

        func run() throws {
            try Limits.check(preemptionBound, in: Limits.preemptionBound, option: "--preemption-bound", limit: "preemptionBound")
            try Limits.check(maxSchedules, in: Limits.exploreSchedules, option: "--max-schedules", limit: "exploreSchedules")
            try Limits.check(jobs, in: Limits.jobs, option: "--jobs", limit: "jobs")
            guard options.strategy == nil else { throw InputError.fail("--strategy: explore enumerates schedules itself; give --preemption-bound instead") }
            let request = try options.prepared(scenario: scenario, seed: seed, defaultStrategy: .nonpreemptive).request
            if !options.quiet {
                print("\(ScenarioRegistry.commandName) explore \(request.scenario) seed=\(request.seed) variant=\(request.variant ?? "careful") preemption-bound=\(preemptionBound) max-schedules=\(maxSchedules) jobs=\(jobs)")
            }
            let bar = ProgressBar(total: maxSchedules, label: "explore (schedules of --max-schedules)", quiet: options.quiet)
            let exploration: BoundedExplorer.Exploration<ScenarioRunner.Execution>
            do {
                exploration = try ScenarioExplorer.explore(request, preemptionBound: preemptionBound, maxSchedules: maxSchedules, jobs: jobs) { _, schedules in
                    bar.update(schedules)
                }
            } catch { throw InputError.fail(error.description) }
            bar.finish()
            print(exploration.summary)
            try finish(exploration, request: request)
        }

        /// Writes the failure's artifact and picks the exit code.
        func finish(_ exploration: BoundedExplorer.Exploration<ScenarioRunner.Execution>, request: RunRequest) throws {
            switch exploration.ending {
            case .complete:
                return
            case .stoppedAtLimit:
                if requireComplete { throw ExitCode(1) }
            case .nondeterministic:
                throw ExitCode(1)
            case .failed:
                guard let failure = exploration.failure else { throw ExitCode(1) }
                let report = failure.detail.report
                print("FAIL \(report.failure?.message ?? report.outcomeDetail)")
                let directory = "\(options.reportDir)/\(request.scenario)/explore"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let artifact = FailureArtifact(failed: failure.detail, request: request)
                let path = "\(directory)/\(artifact.fileName)"
                try artifact.write(to: path)
                print("  decisions: \(failure.decisions) (\(failure.preemptions) preemption\(failure.preemptions == 1 ? "" : "s"))")
                for line in FailureArtifact.replayLines(path: path, scenario: request.scenario) { print(line) }
                throw ExitCode(1)
            }
        }
    }
}
