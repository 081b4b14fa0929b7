import Synchronization

/// Every scenario the CLI can run, in listing order: the built-in ones, then the ones a program
/// registered (`Rehearse.main(scenarios:)`, `Rehearsal.sweep(_:…)`), which then run through the
/// same runner, reports, fuzz, shrink and replay as the built-in ones.
public enum ScenarioRegistry {
    /// The scenarios that ship with Rehearsal.
    public static let builtIn: [any Scenario] = [
        AuctionRaceScenario(), LikeStormScenario(), SeatContentionScenario(), KiddushBookingScenario(),
        HeartbeatTimelineScenario(), FriendHandshakeScenario(), NudgeStormScenario(), OfflineSyncScenario(), StampCollectScenario(),
        StampSocialScenario(), PrivacyAccessScenario(), StudioClaimScenario(), PrivacyRevocationScenario(),
        CalendarSyncScenario(), ContactDiscoveryScenario(), MediaUploadsScenario(), DailyReminderScenario(), WhosFreeScenario(),
    ]

    /// Registered scenarios and the program name, behind one lock (registration happens at start-up).
    private static let state = Mutex(State())

    private struct State {
        var registered: [any Scenario] = []
        var hidden: [any Scenario] = []
        var commandName = "rehearse"
    }

    /// Built-in scenarios, then registered ones, in registration order.
    public static var all: [any Scenario] { builtIn + state.withLock { $0.registered } }

    /// The name replay hints print for the program (`rehearse`, or a user's executable).
    public static var commandName: String {
        get { state.withLock { $0.commandName } }
        set { state.withLock { $0.commandName = newValue } }
    }

    /// Adds `scenarios` (listed after the built-in ones). A name of a built-in scenario, or two
    /// different scenarios with one name, is a typed error; registering a same-named scenario
    /// again replaces it (a test may register its scenario every time it runs).
    public static func register(_ scenarios: [any Scenario]) throws(ScenarioError) {
        for scenario in scenarios {
            if builtIn.contains(where: { $0.name == scenario.name }) { throw .duplicateScenario(scenario.name) }
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

    /// The scenario called `name`, or a typed error listing the valid names.
    public static func scenario(named name: String) throws(ScenarioError) -> any Scenario {
        let hidden = state.withLock { $0.hidden }
        guard let found = (all + hidden).first(where: { $0.name == name }) else { throw .unknownScenario(name, valid: all.map(\.name)) }
        return found
    }
}
