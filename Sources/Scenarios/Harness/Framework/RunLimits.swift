import Sim

/// How far one run may go and what it tolerates: the steps and virtual time before it ends as a
/// limit outcome (a livelock, an endless sleep loop), whether work from other threads is an escape
/// (strict) or waited for, and the wall time one job may run before a watchdog fails the run
/// (a loop without an `await`). `rehearse run`/`fuzz` (`--max-steps`, `--max-virtual-time`,
/// `--no-strict`, `--stuck-job-limit`) and `Rehearsal.sweep`/`replay` take the same values.
public struct RunLimits: Sendable, Hashable, Codable {
    /// Scheduler steps before `.stepLimit`.
    public var maxSteps: UInt64
    /// Virtual nanoseconds before `.timeLimit`.
    public var maxVirtualNanoseconds: UInt64
    /// Whether a job from a real thread, a real sleep or MainActor use ends the run as an escape.
    public var strict: Bool
    /// Wall-clock seconds one job may run before the watchdog fails the run (nil: none).
    public var stuckJobSeconds: Int?

    /// The command line's defaults: the kernel's 50 M steps and 30 virtual days, strict, and a
    /// watchdog at 60 s of wall time in one job (no scenario job comes near it).
    package static let standard = RunLimits(stuckJobSeconds: 60)

    /// Limits with every field given (the defaults are `standard`'s).
    public init(
        maxSteps: UInt64 = SimulationLimits().maxSteps, maxVirtualNanoseconds: UInt64 = SimulationLimits().maxVirtualNanoseconds,
        strict: Bool = true, stuckJobSeconds: Int? = nil
    ) {
        self.maxSteps = maxSteps
        self.maxVirtualNanoseconds = maxVirtualNanoseconds
        self.strict = strict
        self.stuckJobSeconds = stuckJobSeconds
    }

    /// `configuration` with these limits applied.
    package func apply(to configuration: SimulationConfiguration) -> SimulationConfiguration {
        var configured = configuration
        configured.limits.maxSteps = maxSteps
        configured.limits.maxVirtualNanoseconds = maxVirtualNanoseconds
        configured.strict = strict
        configured.stuckJobLimit = stuckJobSeconds.map { .seconds($0) }
        return configured
    }

    /// The command-line words of the limits that differ from `standard`.
    package var arguments: [String] {
        var words: [String] = []
        if maxSteps != Self.standard.maxSteps { words += ["--max-steps", "\(maxSteps)"] }
        if maxVirtualNanoseconds != Self.standard.maxVirtualNanoseconds {
            // The command line takes whole seconds; a closure sweep's odd value rounds up.
            words += ["--max-virtual-time", "\((maxVirtualNanoseconds + 999_999_999) / 1_000_000_000)s"]
        }
        if !strict { words.append("--no-strict") }
        if stuckJobSeconds != Self.standard.stuckJobSeconds { words += ["--stuck-job-limit", stuckJobSeconds.map { "\($0)s" } ?? "off"] }
        return words
    }
}
