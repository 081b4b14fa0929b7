import Domain
import SimulatedFirebase

extension RulesWorld {
    /// Inspired: three users and a stranger who never calls; profiles with valid and invalid
    /// privacy settings (and usernames the trigger would assign), memberships that overlap or not,
    /// studios with an owner or none (ratings and counts as int and double), posts with likes and
    /// comments by their authors or others, and usernames. Profiles and memberships are drawn
    /// twice as often as the rest, so the overlap rule often finds both users' memberships.
    public static var inspired: RulesWorld {
        let uids = ["ann", "ben", "cy"], stranger = "zed"
        let people: [Value] = (uids + [stranger]).map { .string($0) }
        func privacy(_ profilePublic: Value, _ avatar: Value, _ groups: String) -> Value {
            .map(["isProfilePublic": profilePublic, "avatarPrivacy": avatar, "showJoinedGroups": .string(groups)])
        }
        func communities(_ names: [String]) -> Value { .array(names.map { .string($0) }) }
        let authors: [Value] = people.map { .map(["id": $0, "username": .string("someone#0001")]) } + [.string("ann")]
        let profiles = Collection("users", fields: [
            Field("privacySettings", [
                privacy(.bool(false), .string("groups-only"), "members-only"), privacy(.bool(true), .string("public"), "public"),
                privacy(.bool(false), .string("public"), "groups-only"), privacy(.bool(false), .string("groups-only"), "groups-only"),
                privacy(.bool(false), .string("groups-only"), "public"), privacy(.bool(true), .string("groups-only"), "public"),
                privacy(.bool(false), .string("friends"), "public"), privacy(.int(1), .string("groups-only"), "groups-only"),
                .map(["avatarPrivacy": .string("public")]), .string("public"),
            ]),
            Field("displayName", [.string("Ann"), .string("Ben")]), Field("bio", [.string(""), .string("yoga every day")]),
            Field("username", [.string("ann#1234"), .string("ben#0001"), .null]),
            Field("postCount", [.int(2), .double(2), .int(3)]),
        ])
        let memberships = Collection("memberships", fields: [
            Field("communities", [communities([]), communities(["yoga"]), communities(["climbing", "yoga"]), communities(["climbing"]),
                                  communities(["running", "yoga"]), .string("yoga")]),
        ])
        return RulesWorld(
            app: "inspired", rulesText: InspiredApp.rulesText, rules: InspiredApp.securityRules,
            users: uids.map { AuthContext(uid: $0) },
            ids: uids + [stranger],
            collections: [
                profiles, memberships, profiles, memberships,
                Collection("usernames", ids: ["ann#1234", "ben#0001"], fields: [Field("userId", people)]),
                Collection("studios", ids: ["s1", "s2"], fields: [
                    Field("ownerId", people + [.null]), Field("isClaimed", [.bool(true), .bool(false)]),
                    Field("about", [.string(""), .string("Hot yoga downtown")]),
                    Field("moderationSettings", [.map(["autoApproveMemberComments": .bool(true)]), .map(["guestCommentsEnabled": .bool(true)])]),
                    Field("rating", [.double(4.5), .int(4), .double(4)]), Field("reviewCount", [.int(10), .double(10), .int(12)]),
                    Field("name", [.string("Studio One"), .string("Flow")]),
                ]),
                Collection("posts", ids: ["p1", "p2"], fields: [
                    Field("author", authors), Field("content", [.string("Morning flow"), .string("New class")]),
                    Field("stats", [.map(["likeCount": .int(0), "commentCount": .int(0)]), .map(["likeCount": .int(1), "commentCount": .int(0)]),
                                    .map(["likeCount": .double(1), "commentCount": .int(0)])]),
                    Field("createdAt", [.int(5), .double(5), .int(6)]),
                ]),
                Collection("posts/{postId}/likes", fields: [Field("userId", people), Field("tap", [.int(1), .double(1), .int(2)])]),
                Collection("posts/{postId}/comments", ids: ["c1", "c2"], fields: [
                    Field("author", authors), Field("text", [.string("Love it"), .string("See you there")]),
                    Field("createdAt", [.int(5), .double(5)]),
                ]),
            ])
    }
}
