/// Every scenario the CLI can run, in listing order.
public enum ScenarioRegistry {
    public static let all: [any Scenario] = [
        AuctionRaceScenario(), LikeStormScenario(), SeatContentionScenario(), KiddushBookingScenario(),
        HeartbeatTimelineScenario(),
    ]

    /// Scenarios that run by name but are not listed (test only).
    public static let hidden: [any Scenario] = [CrashTestScenario()]

    /// The scenario called `name`, or a typed error listing the valid names.
    public static func scenario(named name: String) throws(ScenarioError) -> any Scenario {
        guard let found = (all + hidden).first(where: { $0.name == name }) else { throw .unknownScenario(name, valid: all.map(\.name)) }
        return found
    }
}
