import Synchronization

/// Every scenario a program can run, in listing order: a catalog (the built-in `rehearse`
/// registers the five apps' scenarios as one), then the ones a program registered
/// (`Rehearse.main(scenarios:)`, `Rehearsal.sweep(_:…)`). All run through the same runner,
/// reports, fuzz, shrink and replay. The harness ships no scenario of its own.
public enum ScenarioRegistry {
    /// Registered scenarios and the program name, behind one lock (registration happens at start-up).
    private static let state = Mutex(State())

    private struct State {
        var catalog: [any Scenario] = []
        var registered: [any Scenario] = []
        var hidden: [any Scenario] = []
        /// Set by a program's `Rehearse.main`; nil in a test process, which has no program.
        var commandName: String?
    }

    /// The catalog's scenarios, then registered ones, in registration order.
    public static var all: [any Scenario] { state.withLock { $0.catalog + $0.registered } }

    /// The catalog (listed first; a registered scenario may not take one of its names).
    package static var catalog: [any Scenario] { state.withLock { $0.catalog } }

    /// Sets the catalog: a set of scenarios shipped together (the built-in ones). Setting it again
    /// replaces it.
    package static func registerCatalog(_ scenarios: [any Scenario]) {
        state.withLock { $0.catalog = scenarios }
    }

    /// Sets the catalog unless one is set, in one step (a test's stand-in never replaces the
    /// built-in catalog another test set meanwhile).
    package static func registerCatalogIfEmpty(_ scenarios: [any Scenario]) {
        state.withLock { if $0.catalog.isEmpty { $0.catalog = scenarios } }
    }

    /// The name replay hints print for the program (`rehearse`, or a user's executable).
    package static var commandName: String {
        get { state.withLock { $0.commandName ?? "rehearse" } }
        set { state.withLock { $0.commandName = newValue } }
    }

    /// The program a command line for `scenario` names: this program's (`Rehearse.main`), else
    /// `rehearse` for a built-in scenario, else a placeholder for the user's executable (a test
    /// process registered the scenario, and no program it knows lists it).
    package static func program(for scenario: String) -> String {
        state.withLock { state in
            if let name = state.commandName { return name }
            let builtIn = (state.catalog + state.hidden).contains { $0.name == scenario }
            return builtIn || !state.registered.contains { $0.name == scenario } ? "rehearse" : "<your Rehearse.main executable>"
        }
    }

    /// Adds `scenarios` (listed after the built-in ones). A name of a built-in scenario, or two
    /// different scenarios with one name, is a typed error; registering a same-named scenario
    /// again replaces it (a test may register its scenario every time it runs).
    package static func register(_ scenarios: [any Scenario]) throws(ScenarioError) {
        for scenario in scenarios {
            if catalog.contains(where: { $0.name == scenario.name }) { throw .duplicateScenario(scenario.name) }
            guard !scenario.name.isEmpty, scenario.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw .malformedScenarioName(scenario.name)
            }
        }
        let names = scenarios.map(\.name)
        if let twice = names.first(where: { name in names.count { $0 == name } > 1 }) { throw .duplicateScenario(twice) }
        state.withLock { state in
            state.registered.removeAll { existing in names.contains(existing.name) }
            state.registered += scenarios
        }
    }

    /// Registers a scenario that runs by name but is not listed (test fixtures such as `crash-test`).
    package static func registerHidden(_ scenario: any Scenario) {
        state.withLock { state in
            state.hidden.removeAll { $0.name == scenario.name }
            state.hidden.append(scenario)
        }
    }

    /// The Swift type of the scenario called `name` (`AuctionRaceScenario`), as a replay call spells it.
    package static func typeName(of name: String) -> String? {
        (try? scenario(named: name)).map { String(describing: type(of: $0)) }
    }

    /// The scenario called `name`, or a typed error listing the valid names.
    package static func scenario(named name: String) throws(ScenarioError) -> any Scenario {
        let hidden = state.withLock { $0.hidden }
        guard let found = (all + hidden).first(where: { $0.name == name }) else { throw .unknownScenario(name, valid: all.map(\.name)) }
        return found
    }
}
