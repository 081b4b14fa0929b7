/// The resolved parameter values of one run (defaults overridden by `name=value` pairs).
public struct ScenarioParameters: Sendable, Hashable, Codable {
    /// Values by name; encoded with sorted keys.
    public private(set) var values: [String: Int]

    /// Values by parameter name (the runner fills in defaults).
    package init(values: [String: Int]) { self.values = values }

    /// The value of `parameter`; a scenario asking for a parameter it did not declare is a programmer error.
    public subscript(_ parameter: ScenarioParameter) -> Int { self[named: parameter.name] }

    /// The value of the parameter called `name` (requirements store names, to be printable and Codable).
    subscript(named name: String) -> Int {
        guard let value = values[name] else { preconditionFailure("parameter \(name) not declared") }
        return value
    }

    /// Resolves `overrides` against `specs`: unknown names and out-of-range values throw.
    package static func resolve(
        _ overrides: [String: Int], specs: [ScenarioParameter], scenario: String
    ) throws(ScenarioError) -> ScenarioParameters {
        var values: [String: Int] = [:]
        for spec in specs { values[spec.name] = spec.defaultValue }
        for name in overrides.keys.sorted() {
            let value = overrides[name]!
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw .unknownParameter(scenario: scenario, name: name, valid: specs.map(\.name))
            }
            guard value >= spec.minimum, value <= spec.maximum else {
                throw .invalidParameter(name: name, value: value, reason: "must be in \(spec.minimum)...\(spec.maximum)")
            }
            values[name] = value
        }
        return ScenarioParameters(values: values)
    }

    /// Parses `name=value` pairs (later pairs win).
    package static func parsePairs(_ pairs: [String]) throws(ScenarioError) -> [String: Int] {
        var result: [String: Int] = [:]
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let value = Int(parts[1]) else { throw .malformedParameter(pair) }
            result[parts[0]] = value
        }
        return result
    }
}
