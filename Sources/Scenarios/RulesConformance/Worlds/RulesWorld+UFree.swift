import Domain
import SimulatedFirebase

extension RulesWorld {
    /// UFree (the careful design's rules): three users and a stranger who never calls; profiles
    /// whose `friendIds` differ by one user or more, days with edit stamps (whole and fractional
    /// `editedAt`, int and double), notifications, nudge markers, friendship pairs (queried by
    /// `members == [low, high]` as the device does) and the functions' collections.
    public static var ufree: RulesWorld {
        let uids = ["ann", "ben", "cy"], stranger = "zed"
        let people: [Value] = (uids + [stranger]).map { .string($0) }
        func ids(_ members: [String]) -> Value { .array(members.map { .string($0) }) }
        let pairs = [["ann", "ben"], ["ann", "cy"], ["ben", "cy"], ["cy", "zed"]]
        return RulesWorld(
            app: "ufree", rulesText: UFreeApp.rulesText, rules: UFreeApp.securityRules(for: .careful),
            users: uids.map { AuthContext(uid: $0) },
            ids: uids + [stranger],
            collections: [
                Collection("users", fields: [
                    Field("displayName", [.string("Ann"), .string("Ben")]), Field("timeZone", [.string("America/New_York"), .string("Europe/London")]),
                    Field("friendIds", [ids([]), ids(["ann"]), ids(["ben"]), ids(["cy"]), ids(["ann", "ben"]), ids(["ben", "cy"]), ids(["cy", "ann"]), ids(["zed"])]),
                    Field("version", [.int(1), .double(1), .int(2), .double(2.5)]),
                ]),
                Collection("users/{uid}/availability", ids: ["2026-01-03", "2026-01-04"], fields: [
                    Field("status", [.int(0), .int(2), .double(2), .int(4)]), Field("note", [.string("busy"), .string("free after 6")]),
                    Field("editedAt", [.int(50), .int(100), .double(100), .int(200), .double(150.5), .string("200")]),
                    Field("editor", [.string("ann/phone"), .string("ann/tablet"), .string("ben/phone")]),
                ]),
                Collection("users/{uid}/notifications", ids: ["n1", "n2"], fields: [
                    Field("type", [.string("nudge"), .string("friendRequest")]), Field("senderId", people), Field("recipientId", people),
                    Field("read", [.bool(true), .bool(false)]), Field("createdAt", [.int(5), .double(5)]),
                ]),
                Collection("users/{uid}/nudge_senders", fields: [Field("lastNudgeAt", [.int(100), .double(100), .int(160)])]),
                Collection("friendships", ids: pairs.map { $0.joined(separator: "_") }, fields: [
                    Field("members", pairs.map(ids) + [ids(["ben", "ann"]), .string("ann")]),
                    Field("state", [.string("pending"), .string("friends")]), Field("requesterId", people),
                    Field("updatedAt", [.int(7), .double(7)]),
                ]),
                Collection("friend_requests", ids: ["ann_ben", "ben_cy"], fields: [Field("fromUserId", people), Field("toUserId", people)]),
                Collection("phone_index", ids: ["h1"], fields: [Field("userId", people)]),
                Collection("lookup_quota", ids: ["ann"], fields: [Field("count", [.int(1), .double(1)])]),
            ])
    }
}

extension RulesWorld {
    /// UFree under the seed's rules taken literally (the variant `seed-rules-literal`,
    /// `ufree-seed.rules`), over the same documents and callers.
    public static var ufreeSeed: RulesWorld {
        var world = ufree
        world.app = "ufree-seed"
        world.rulesText = UFreeApp.seedRulesText
        world.rules = UFreeApp.securityRules(for: .seedRulesLiteral)
        return world
    }
}
