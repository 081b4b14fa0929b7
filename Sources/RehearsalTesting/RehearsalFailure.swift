import Harness
import Sim

/// A failure a `Rehearsal` sweep found: where (seed, strategy), what (the message), the shrunk
/// decisions log that reproduces it, and Swift code that replays it.
public struct RehearsalFailure: Sendable, Hashable, CustomStringConvertible {
    /// The seed that failed.
    public var seed: UInt64
    /// The strategy that ran (a portfolio's member, PCT with its measured horizon).
    public var strategy: String
    /// The timing window the run had (see `SimulationConfiguration.timingWindowNanoseconds`).
    public var timingWindowNanoseconds: UInt64
    /// What failed: a check's message, the error the body threw, a deadlock, …
    public var message: String
    /// The shrunk decisions log: `.replay(decisions:)` with the seed reproduces the failure.
    public var decisions: [UInt32]
    /// Non-default choices before and after shrinking.
    public var preemptionsBefore: Int
    /// Non-default choices of `decisions`.
    public var preemptionsAfter: Int
    /// Swift code that replays the failure (paste it in place of the sweep): for a scenario,
    /// `Rehearsal.replay(Type(), artifact:)` reading `artifact`.
    public var replayCall: String
    /// A command line that replays the same failure through a `rehearse`-style executable
    /// (`<program> replay <artifact>`; scenarios with an artifact and a program that lists them).
    public var replayCommand: String?
    /// The failure's artifact, which `replayCall` and `replayCommand` both read (scenarios only).
    public var artifact: String?
    /// The failing run's parameters, every one (scenarios only; empty for a closure).
    public var parameters: [String: Int] = [:]
    /// How the parameters shrank (scenarios only): the changed ones and whether they are a local
    /// minimum ("buyers 4→2; local minimum: …").
    public var parameterShrink: String?
    /// The failing run's story (scenarios only): the events that led to the violation.
    public var story: [String]
    /// The build that found it (`Rehearsal.currentBuild`): its decisions belong to this binary.
    public var build: String?
    /// Whether `decisions` has the fewest preemptions any failing schedule of this seed has
    /// (nil: not searched, as for a nondeterministic failure).
    public var scheduleSearch: ScheduleSearch?

    /// A failure as a sweep reports it.
    public init(
        seed: UInt64, strategy: String, timingWindowNanoseconds: UInt64, message: String, decisions: [UInt32],
        preemptionsBefore: Int, preemptionsAfter: Int, replayCall: String, replayCommand: String? = nil, story: [String] = [],
        build: String? = nil, scheduleSearch: ScheduleSearch? = nil, artifact: String? = nil
    ) {
        self.artifact = artifact
        self.build = build
        self.scheduleSearch = scheduleSearch
        self.seed = seed
        self.strategy = strategy
        self.timingWindowNanoseconds = timingWindowNanoseconds
        self.message = message
        self.decisions = decisions
        self.preemptionsBefore = preemptionsBefore
        self.preemptionsAfter = preemptionsAfter
        self.replayCall = replayCall
        self.replayCommand = replayCommand
        self.story = story
    }

    /// The text of the test issue: seed, strategy, message, shrunk decisions and the replay call.
    public var description: String {
        var lines = [
            "Rehearsal found a failure at seed \(seed), strategy \(strategy): \(message)",
            "shrunk decisions (\(preemptionsBefore) -> \(preemptionsAfter) preemptions): \(Self.literal(decisions))",
        ]
        if let parameterShrink { lines.append("parameters: \(parameterShrink)") }
        if let scheduleSearch { lines.append("schedule: \(scheduleSearch)") }
        if !story.isEmpty { lines.append("story:"); lines += story.map { "  \($0)" } }
        if let artifact {
            lines.append("replay it from its artifact \(artifact) (same build\(build.map { ": \($0)" } ?? "")):")
            lines.append("  in Swift: \(replayCall)")
            lines.append(replayCommand.map { "  or from the command line: \($0)" } ?? "  (no program lists this scenario for a command line: pass `executable:` to name yours)")
        } else {
            lines.append("replay it in Swift (same body, same build\(build.map { ": \($0)" } ?? "")):")
            lines.append("  \(replayCall)")
            if let replayCommand { lines.append("or from the command line: \(replayCommand)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `[0, 2, 0]`: a decisions log as a Swift array literal.
    static func literal(_ decisions: [UInt32]) -> String {
        "[" + decisions.map(String.init).joined(separator: ", ") + "]"
    }
}
