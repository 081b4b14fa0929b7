/// A condition on one scenario parameter under which a check can be exercised, e.g. the goal
/// "a sniper's bid landed" needs `sniperPercent >= 1`. Declarative (not a closure), so it is
/// printed in reports and compared across shards.
public struct CheckRequirement: Sendable, Hashable, Codable {
    /// The parameter the condition reads.
    public let parameter: String
    /// Smallest value that makes the check reachable.
    public let minimum: Int
    /// Largest value that makes the check reachable.
    public let maximum: Int

    /// `parameter` must be at least `minimum`.
    package static func atLeast(_ parameter: ScenarioParameter, _ minimum: Int) -> CheckRequirement {
        CheckRequirement(parameter: parameter.name, minimum: minimum, maximum: .max)
    }

    /// `parameter` must be at most `maximum`.
    package static func atMost(_ parameter: ScenarioParameter, _ maximum: Int) -> CheckRequirement {
        CheckRequirement(parameter: parameter.name, minimum: .min, maximum: maximum)
    }

    /// Whether `parameters` satisfy the condition.
    package func isMet(by parameters: ScenarioParameters) -> Bool {
        let value = parameters[named: parameter]
        return value >= minimum && value <= maximum
    }

    /// "sniperPercent=0 (needs >= 1)".
    package func explanation(_ parameters: ScenarioParameters) -> String {
        let needs: String
        if maximum == .max { needs = ">= \(minimum)" } else if minimum == .min { needs = "<= \(maximum)" } else { needs = "in \(minimum)...\(maximum)" }
        return "\(parameter)=\(parameters[named: parameter]) (needs \(needs))"
    }
}
