import ArgumentParser
import Harness

extension Rehearse {
    /// `rehearse run <scenario>`: one seed, a report folder, exit 1 on a violation or missed threshold.
    struct RunCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Run one seed of a scenario and write its report.")

        @Argument(help: "Scenario name (see `rehearse list`).")
        var scenario: String
        @Option(name: .long, parsing: .unconditional, help: "Seed (0...\(UInt64.max)).", transform: Limits.seed)
        var seed: UInt64 = 1
        @Flag(name: .long, help: "Swarm testing: draw this seed's fault kinds and rates (as fuzz --world default does).")
        var swarm = false
        @Option(name: .long, parsing: .unconditional, help: "swarm: draw this seed's world as fuzz does (every parameter not given with --param, fault rates, outages); default: the scenario's defaults.", transform: ArgumentValue.worldMode)
        var world: WorldMode = .default
        @Option(name: .long, parsing: .unconditional, help: "Also write a JUnit XML report here (a test case per check).")
        var junit: String?
        @OptionGroup var options: RunOptions

        func run() throws {
            var prepared = try options.prepared(scenario: scenario, seed: seed)
            try JUnitOutput.check(junit)
            if world != .default {
                guard !swarm else { throw InputError.fail("--swarm draws fault kinds in the default world; --world \(world) draws the whole world: give one") }
                var runner = SweepRunner(prepared: prepared, swarm: true, failureDirectory: nil)
                runner.world = world
                prepared = runner.prepared(seed: seed)
            } else if swarm {
                prepared = prepared.seed(seed, swarm: SwarmConfiguration.draw(seed: seed, kinds: prepared.scenario.swarmKinds))
            }
            let request = prepared.request
            if !options.quiet {
                print("\(ScenarioRegistry.commandName) run \(request.scenario) seed=\(request.seed) strategy=\(request.strategy) variant=\(request.variant ?? "careful")\(request.swarm.map { " swarm: \($0)" } ?? "")\(request.world.map { " world: \($0)" } ?? "")")
            }
            let execution = ScenarioRunner.execute(prepared)
            let report = execution.report, trace = execution.trace
            let folder = try ReportWriter.write(report, trace: trace, to: options.reportDir)
            try JUnitOutput.write(JUnitReport.run(report, folder: folder), to: junit, quiet: options.quiet)
            try Verdict.print(report, folder: folder, quiet: options.quiet)
        }
    }
}
