import Harness

/// The scenarios that ship with Rehearsal: the five apps' races, storms and timelines, in listing order.
public enum BuiltInScenarios {
    /// Every built-in scenario.
    public static let all: [any Scenario] = [
        AuctionRaceScenario(), LikeStormScenario(), SeatContentionScenario(), KiddushBookingScenario(),
        HeartbeatTimelineScenario(), FriendHandshakeScenario(), NudgeStormScenario(), OfflineSyncScenario(), StampCollectScenario(),
        StampSocialScenario(), PrivacyAccessScenario(), StudioClaimScenario(), PrivacyRevocationScenario(),
        CalendarSyncScenario(), ContactDiscoveryScenario(), MediaUploadsScenario(), DailyReminderScenario(), WhosFreeScenario(),
        AdminBroadcastScenario(),
    ]

    /// Registers them as the program's catalog (`ScenarioRegistry.registerCatalog`).
    public static func register() { ScenarioRegistry.registerCatalog(all) }
}
