/// Where a `.replay` run stopped following its decisions log: the log asked for a choice that
/// did not exist at that choice point (the run goes on with the last choice, so shrinking
/// can still try such logs; a replay of an artifact must say so instead of passing it off).
public struct ReplayDivergence: Sendable, Hashable, CustomStringConvertible {
    /// 0-based index of the choice point in the decisions log.
    public var choicePoint: Int
    /// The logged decision.
    public var decision: UInt32
    /// How many choices there were.
    public var choices: Int

    /// Names the choice point, the logged decision and the choices that were ready.
    public var description: String {
        "the decisions log diverged at choice point \(choicePoint): it chose \(decision), but only \(choices) choices (0...\(choices - 1)) were ready"
    }
}
