/// A program on which the two backends answered differently, shrunk: the first step that differs,
/// both answers, and whether a documented divergence explains it.
public struct ConformanceMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The shrunk program.
    public var program: ConformanceProgram
    /// Index of the first differing outcome (`program.steps.count` is the final state).
    public var step: Int
    /// The simulated Firebase's answer there.
    public var simulated: ConformanceOutcome
    /// The real server's answer there.
    public var real: ConformanceOutcome
    /// The documented divergence it falls under, nil when undocumented.
    public var known: KnownDivergence?

    /// The behaviours of the differing step (the final state counts as every write of the program).
    public var behaviours: [String] {
        if step < program.steps.count { return program.steps[step].behaviours }
        return program.steps.flatMap(\.behaviours).filter { !$0.hasPrefix("query") && $0 != "get" }
    }

    /// The program, the step and both answers.
    public var description: String {
        let at = step < program.steps.count ? "step \(step + 1)" : "the final state"
        return """
        seed \(program.seed): differs at \(at)\(known.map { " (known: \($0.name), \($0.source))" } ?? " (UNDOCUMENTED)")
        \(program)
          simulated: \(simulated)
          real:      \(real)
        """
    }
}
