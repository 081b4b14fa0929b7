/// A rule between a scenario's parameters, declared once next to them (`Scenario.constraints`):
/// `rehearse run` refuses a run that breaks one (exit 2, naming it), and a world swarm never draws
/// one that does. Comparisons also tell the swarm which parameters are related, so it draws them
/// equal, neighbouring and apart on purpose ("seats < users", "admins = users").
public struct ParameterConstraint: Sendable, CustomStringConvertible {
    /// The rule as a user reads it: `admins <= users`.
    public let description: String
    /// The parameters it reads.
    package let parameters: [String]
    /// Two parameters a draw sets equal or next to each other now and then (a comparison's sides).
    package let related: (String, String)?
    /// Whether `values` satisfy it.
    let holds: @Sendable (ScenarioParameters) -> Bool

    /// A rule called `description` over `parameters`, holding when `holds` says so.
    package init(_ description: String, reading parameters: [ScenarioParameter], related: (ScenarioParameter, ScenarioParameter)? = nil,
                holds: @escaping @Sendable (ScenarioParameters) -> Bool) {
        self.description = description
        self.parameters = parameters.map(\.name)
        self.related = related.map { ($0.0.name, $0.1.name) }
        self.holds = holds
    }

    /// Whether `values` satisfy the rule.
    package func isMet(by values: ScenarioParameters) -> Bool { holds(values) }

    /// `a <= factor × b`.
    package static func atMost(_ a: ScenarioParameter, _ b: ScenarioParameter, times factor: Int = 1) -> ParameterConstraint {
        ParameterConstraint("\(a.name) <= \(factor == 1 ? "" : "\(factor) × ")\(b.name)", reading: [a, b], related: (a, b)) {
            $0[a] <= factor * $0[b]
        }
    }

    /// `a > factor × b`.
    package static func greaterThan(_ a: ScenarioParameter, _ b: ScenarioParameter, times factor: Int = 1) -> ParameterConstraint {
        ParameterConstraint("\(a.name) > \(factor == 1 ? "" : "\(factor) × ")\(b.name)", reading: [a, b], related: (a, b)) {
            $0[a] > factor * $0[b]
        }
    }

    /// `a >= factor × b`.
    package static func atLeast(_ a: ScenarioParameter, _ b: ScenarioParameter, times factor: Int = 1) -> ParameterConstraint {
        ParameterConstraint("\(a.name) >= \(factor == 1 ? "" : "\(factor) × ")\(b.name)", reading: [a, b], related: (a, b)) {
            $0[a] >= factor * $0[b]
        }
    }

    /// The sum of `parameters` is at most `bound`.
    package static func sumAtMost(_ parameters: [ScenarioParameter], _ bound: Int) -> ParameterConstraint {
        ParameterConstraint("\(parameters.map(\.name).joined(separator: " + ")) <= \(bound)", reading: parameters) { values in
            parameters.reduce(0) { $0 + values[$1] } <= bound
        }
    }

    /// The product of `parameters` is below `bound`.
    package static func productBelow(_ parameters: [ScenarioParameter], _ bound: Int) -> ParameterConstraint {
        ParameterConstraint("\(parameters.map(\.name).joined(separator: " × ")) < \(bound)", reading: parameters) { values in
            parameters.reduce(1) { $0.multipliedReportingOverflow(by: values[$1]).partialValue } < bound
        }
    }

    /// `parameter` is not `value`.
    package static func not(_ parameter: ScenarioParameter, _ value: Int) -> ParameterConstraint {
        ParameterConstraint("\(parameter.name) != \(value)", reading: [parameter]) { $0[parameter] != value }
    }

    /// Not every one of `parameters` is `value`.
    package static func notAll(_ parameters: [ScenarioParameter], _ value: Int) -> ParameterConstraint {
        ParameterConstraint("not all of \(parameters.map(\.name).joined(separator: ", ")) are \(value)", reading: parameters) { values in
            !parameters.allSatisfy { values[$0] == value }
        }
    }

    /// `a` and `b` are related without a rule: draws set them equal or neighbouring now and then.
    package static func related(_ a: ScenarioParameter, _ b: ScenarioParameter) -> ParameterConstraint {
        ParameterConstraint("\(a.name) ~ \(b.name)", reading: [a, b], related: (a, b)) { _ in true }
    }
}
