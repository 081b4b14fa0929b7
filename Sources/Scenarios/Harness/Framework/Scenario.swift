/// A workload plus its checkers: user actors drive a domain app on the simulator while the
/// scenario's invariants (Always), goals (Sometimes) and end-state checks (Eventually) watch.
public protocol Scenario: Sendable {
    /// Stable kebab-case name used on the command line and in report paths.
    var name: String { get }
    /// One line for `rehearse list`.
    var summary: String { get }
    /// The documented parameters with defaults and ranges.
    var parameters: [ScenarioParameter] { get }
    /// The operations whose latency the scenario records (what a threshold may name).
    var operations: [String] { get }
    /// Domain variant names this scenario can run (and should catch).
    var variants: [String] { get }
    /// The checks the scenario may report, so a passing report still lists them.
    var checks: [CheckDeclaration] { get }
    /// Whether a run builds a backend that joins the run (`ScenarioContext.join`); the runner fails
    /// a run that should have and did not, since the run's faults would never have applied.
    var usesBackend: Bool { get }
    /// The fault kinds a swarmed seed draws rates for (the backend's; empty: nothing to swarm).
    var swarmKinds: [SwarmKind] { get }
    /// The parameter that counts the scenario's users (`users`, `bidders`), if any: memory per user
    /// and scale measurements vary it.
    var population: ScenarioParameter? { get }
    /// What `rehearse load` runs for this scenario (the same client code on a runner-built
    /// backend), nil if the scenario has no load profile.
    var loadProfile: LoadProfile? { get }
    /// Rules between the parameters (a run that breaks one is refused; a world never draws one).
    var constraints: [ParameterConstraint] { get }
    /// The backend's fault knobs and outage kinds a world swarm draws (empty: none).
    var worldKnobs: WorldKnobs { get }
    /// Cross-parameter validation beyond each parameter's range (by default: the constraints).
    func validate(_ parameters: ScenarioParameters) throws(ScenarioError)
    /// Runs one seed inside `Simulation.run`; reports through `context`.
    func run(_ context: ScenarioContext) async throws
}

extension Scenario {
    /// A scenario builds no backend unless it says so (a backend's bridge says so for its scenarios).
    public var usesBackend: Bool { false }

    /// Nothing to swarm unless the scenario's backend declares fault kinds.
    public var swarmKinds: [SwarmKind] { [] }

    /// No parameter counts users unless the scenario names one.
    public var population: ScenarioParameter? { nil }

    /// No load profile unless the scenario has one.
    public var loadProfile: LoadProfile? { nil }

    /// No rules between parameters unless the scenario declares some.
    public var constraints: [ParameterConstraint] { [] }

    /// No fault knobs unless the scenario's backend declares some.
    public var worldKnobs: WorldKnobs { WorldKnobs() }

    /// Refuses parameters that break a declared constraint, naming it.
    public func validate(_ parameters: ScenarioParameters) throws(ScenarioError) {
        for constraint in constraints where !constraint.isMet(by: parameters) {
            let values = constraint.parameters.map { "\($0)=\(parameters[named: $0])" }.joined(separator: ", ")
            throw .brokenConstraint(scenario: name, constraint: constraint.description, values: values)
        }
    }
}
