import Domain
import SimulatedFirebase

extension RulesWorld {
    /// KNB: users keyed by email (one is the super admin, one an admin by document), one caller
    /// without an email; honors with bids, posts, sponsorships, seats and the functions' collections.
    public static var knb: RulesWorld {
        let emails = ["ann@knb.test", "ben@knb.test", KNBRules.superAdminEmail, "gabe@knb.test"]
        let people: [Value] = emails.map { .string($0) } + [.string("stranger@knb.test")]
        let number: [Value] = [.int(10), .double(10), .int(20), .double(25.5), .int(0)]
        return RulesWorld(
            app: "knb", rulesText: KNBRules.rulesText, rules: KNBRules.rules,
            users: [AuthContext(uid: "ann", email: emails[0]), AuthContext(uid: "ben", email: emails[1]),
                    AuthContext(uid: "root", email: emails[2]), AuthContext(uid: "gabe", email: emails[3]), AuthContext(uid: "phone-only")],
            ids: emails,
            collections: [
                Collection("users", fields: [Field("email", people), Field("isAdmin", [.bool(true), .bool(false), .int(1)]), Field("name", [.string("Ann"), .string("Ben")])]),
                Collection("users/{email}/notifications", ids: ["n1", "n2"], fields: [Field("text", [.string("outbid")]), Field("isRead", [.bool(true), .bool(false)])]),
                Collection("honors", ids: ["h1", "h2"], fields: [
                    Field("currentBid", number), Field("buyNowPrice", [.int(100), .double(100)]),
                    Field("bids", [.array([]), .array(["b1"]), .array(["b1", "b2"]), .array(["b2"])]),
                    Field("isSold", [.bool(true), .bool(false)]), Field("currentWinnerEmail", people), Field("title", [.string("Aliyah"), .string("Maftir")]),
                ]),
                Collection("social_posts", ids: ["s1", "s2"], fields: [
                    Field("authorEmail", people), Field("content", [.string(""), .string("Shabbat shalom"), .string(String(repeating: "x", count: 141))]),
                    Field("mediaItems", [.array([]), .array(["m1"]), .array(["m1", "m2", "m3", "m4", "m5"])]),
                    Field("likes", [.array([]), .array(people)]), Field("likeCount", [.int(0), .int(1), .double(1)]), Field("editedAt", [.string("t1")]),
                ]),
                Collection("kiddush_sponsorships", ids: ["k1", "k2"], fields: [Field("sponsorEmail", people), Field("amount", [.int(18), .double(18)])]),
                Collection("seat_reservations", ids: ["r1", "r2"], fields: [Field("reservedBy", people), Field("seat", [.string("A1"), .string("B2")])]),
                Collection("kiddushCalendar", ids: ["2026-01-03"], fields: [Field("sponsored", [.bool(true), .bool(false)])]),
                Collection("communityOccasions", ids: ["o1"], fields: [Field("title", [.string("Bar mitzvah")])]),
                Collection("kiddushMeta", ids: ["counts"], fields: [Field("count", [.int(1)])]),
            ])
    }
}
