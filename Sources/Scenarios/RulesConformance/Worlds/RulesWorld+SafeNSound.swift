import Domain
import SimulatedFirebase

extension RulesWorld {
    /// SafeNSound (the careful rules): anonymous users keyed by uid (one linked to an email), their profiles with
    /// the fields an update may not change (`userId`, `lastHeartbeat`) and those it may, and the
    /// functions' collections, which no client may touch.
    public static var safeNSound: RulesWorld {
        let uids = ["ana", "ben", "cy", "dee"]
        let people: [Value] = uids.map { .string($0) } + [.string("stranger")]
        let at = { (seconds: Int64) in Value.timestamp(Timestamp(unixSeconds: seconds)) }
        return RulesWorld(
            app: "safensound", rulesText: SafeNSoundApp.rulesText, rules: SafeNSoundApp.securityRules(.careful),
            users: uids.dropLast().map { AuthContext(uid: $0) } + [AuthContext(uid: "dee", email: "dee@example.com")],
            ids: uids,
            collections: [
                Collection("users", fields: [
                    Field("userId", people),
                    Field("lastHeartbeat", [at(1_767_225_600), at(1_767_229_200), .int(1_767_225_600), .double(1_767_225_600)]),
                    Field("name", [.string("Ana"), .string("Ben")]),
                    Field("checkInThresholdHours", [.int(24), .double(24), .int(48)]),
                    Field("isActive", [.bool(true), .bool(false)]),
                    Field("emergencyContactEmails", [.array(["mum@example.com"]), .array([])]),
                    Field("heartbeatCount", [.int(0), .double(0), .int(3)]),
                ]),
                Collection("heartbeats", ids: ["h1", "h2"], fields: [
                    Field("userId", people), Field("timestamp", [at(1_767_225_600)]),
                ]),
                Collection("scheduled_alerts", ids: ["ana_1767225600", "ben_1767229200"], fields: [
                    Field("userId", people), Field("status", [.string("pending"), .string("sent")]), Field("scheduledFor", [at(1_767_229_200)]),
                ]),
            ])
    }
}

extension RulesWorld {
    /// SafeNSound with a development catch-all read rule left after the careful rules (the variant
    /// `rules-dev-catch-all`, `safensound-dev-catch-all.rules`): holds "any matching statement
    /// grants" to the emulator.
    public static var safeNSoundCatchAll: RulesWorld {
        var world = safeNSound
        world.app = "safensound-catch-all"
        world.rulesText = SafeNSoundApp.devCatchAllRulesText
        world.rules = SafeNSoundApp.securityRules(.rulesDevCatchAll)
        return world
    }
}
