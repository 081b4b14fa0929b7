/// The `rehearse run` line that reproduces one seed (`RunIdentity.commandLine`): the one builder behind every report's
/// `replayCommand`, the sweep page's and JUnit's replay lines and `replay`'s crash re-run, so none
/// of them can forget a parameter, the variant, the swarm or the timing window.
package struct RunCommandLine: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name.
    package var scenario: String
    /// The seed.
    package var seed: UInt64
    /// The strategy as `--strategy` takes it (a portfolio's member or `portfolio` itself).
    package var strategy: String
    /// Parameters given explicitly (each becomes `--param name=value`, in name order).
    package var parameters: [String: Int]
    /// The Domain variant, nil for the careful design.
    package var variant: String?
    /// Whether the seed drew its swarm of faults.
    package var swarm: Bool
    /// The timing window, when it was set explicitly.
    package var timingWindowNanoseconds: UInt64?
    /// Latency thresholds the run must meet (their expressions).
    package var thresholds: [String] = []
    /// The drawn world's fault rates and outages (its parameters are among `parameters`).
    package var world: World?
    /// The run's limits (words only for those that differ from the defaults).
    package var limits = RunLimits.standard

    /// A line for `scenario` and `seed` with the rest given; programs build one from a run's
    /// identity (`RunIdentity.commandLine`), the one builder.
    package init(
        scenario: String, seed: UInt64, strategy: String, parameters: [String: Int] = [:], variant: String? = nil,
        swarm: Bool = false, timingWindowNanoseconds: UInt64? = nil, world: World? = nil
    ) {
        self.world = world
        self.scenario = scenario
        self.seed = seed
        self.strategy = strategy
        self.parameters = parameters
        self.variant = variant
        self.swarm = swarm
        self.timingWindowNanoseconds = timingWindowNanoseconds
    }

    /// The arguments after `rehearse`: `run <scenario> --seed N --strategy S …`.
    package var arguments: [String] { ["run", scenario, "--seed", "\(seed)"] + options }

    /// The run's options (`--strategy S --timing-window W --param … --variant V --threshold T --swarm`):
    /// the one encoder of a run's words, which replay lines and a sweep's workers share.
    package var options: [String] {
        var arguments = ["--strategy", strategy]
        if let window = timingWindowNanoseconds { arguments += ["--timing-window", "\(window)ns"] }
        let drawn = world?.parameters ?? [:]
        let all = drawn.merging(parameters) { _, explicit in explicit }
        for name in all.keys.sorted() { arguments += ["--param", "\(name)=\(all[name]!)"] }
        if let variant { arguments += ["--variant", variant] }
        for threshold in thresholds { arguments += ["--threshold", threshold] }
        if let world {
            for name in world.faults.keys.sorted() { arguments += ["--fault", "\(name)=\(world.faults[name]!)"] }
            for outage in world.outages { arguments += ["--outage", outage.argument] }
        }
        arguments += limits.arguments
        if swarm { arguments.append("--swarm") }
        return arguments
    }

    /// The line as a user types it (names and values never need quoting: they are validated words),
    /// starting with the program's name (`rehearse`, a user's `Rehearse.main` executable, or in a
    /// test process a placeholder for it: `ScenarioRegistry.program(for:)`).
    package var description: String { ([ScenarioRegistry.program(for: scenario)] + arguments).joined(separator: " ") }
}
