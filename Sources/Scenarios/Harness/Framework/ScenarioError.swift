/// Bad input to a scenario run: every case names the input and says how to fix it.
public enum ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownScenario(String, valid: [String])
    case unknownParameter(scenario: String, name: String, valid: [String])
    case malformedParameter(String)
    case invalidParameter(name: String, value: Int, reason: String)
    case unknownVariant(scenario: String, name: String, valid: [String])
    case malformedThreshold(String, reason: String)
    case malformedSeedRange(String)
    case malformedStrategy(String)
    case unreadableArtifact(path: String, reason: String)
    case malformedSwarm(String)
    /// A registered scenario reuses a built-in scenario's name, or two share one.
    case duplicateScenario(String)
    /// A registered scenario's name is not kebab-case (letters, digits, dashes).
    case malformedScenarioName(String)
    /// Parameters that break a rule the scenario declares between them.
    case brokenConstraint(scenario: String, constraint: String, values: String)
    /// A world that names what the scenario does not have, or values outside their ranges.
    case malformedWorld(String)

    /// One line naming the problem and what is valid.
    public var description: String {
        switch self {
        case .unknownScenario(let name, let valid):
            return "unknown scenario '\(name)'; valid: \(valid.joined(separator: ", "))"
        case .unknownParameter(let scenario, let name, let valid):
            return "scenario \(scenario) has no parameter '\(name)'; valid: \(valid.joined(separator: ", "))"
        case .malformedParameter(let text):
            return "parameter '\(text)' is not of the form name=integer"
        case .invalidParameter(let name, let value, let reason):
            return "parameter \(name)=\(value) is impossible: \(reason)"
        case .unknownVariant(let scenario, let name, let valid):
            return "scenario \(scenario) cannot run variant '\(name)'; valid: \(valid.joined(separator: ", "))"
        case .malformedThreshold(let text, let reason):
            return "threshold '\(text)' is malformed (\(reason)); expected e.g. placeBid.p99<2s"
        case .malformedSeedRange(let text):
            return "seed range '\(text)' is malformed; expected A..<B with A < B, e.g. 1..<100"
        case .malformedStrategy(let text):
            return "strategy '\(text)' is malformed; expected fifo, random, pct:D or pct:D:K"
        case .unreadableArtifact(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .malformedSwarm(let reason):
            return "swarm is malformed: \(reason)"
        case .duplicateScenario(let name):
            return "scenario name '\(name)' is taken (a built-in scenario or another registered one has it); rename the scenario"
        case .malformedScenarioName(let name):
            return "scenario name '\(name)' is not kebab-case (letters, digits and dashes, e.g. bank-transfer)"
        case .brokenConstraint(let scenario, let constraint, let values):
            return "parameters \(values) break \(scenario)'s rule \(constraint)"
        case .malformedWorld(let reason):
            return "world is malformed: \(reason)"
        }
    }
}
