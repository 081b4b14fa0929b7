import Domain
import SimulatedFirebase
import Testing

/// SafeNSound's security rules against a table of known answers (docs/domain.md, "SafeNSound
/// security rules"): owner-only profiles, no forged `lastHeartbeat`, no direct writes to
/// `heartbeats` or `scheduled_alerts`; the literal `request.auth != null` reading allows them all.
@Suite struct SafeNSoundRulesTests {
    static let alice: Fields = ["userId": .string("alice"), "lastHeartbeat": .int(100), "preferredLanguage": .string("en")]

    static func request(_ uid: String?, _ operation: RuleOperation, _ path: DocumentPath, resource: Fields?, data: Fields?) -> RuleRequest {
        RuleRequest(auth: uid.map { AuthContext(uid: $0) }, operation: operation, path: path, resource: resource, data: data, lookup: { _ in nil })
    }

    /// (who, operation, path, data after the write, careful answer).
    static let table: [(String?, RuleOperation, DocumentPath, Fields?, Bool)] = {
        var renamed = alice; renamed["preferredLanguage"] = .string("de")
        var forged = alice; forged["lastHeartbeat"] = .int(999)
        var stolen = alice; stolen["userId"] = .string("bob")
        let profile = DocumentPath("users", "alice")
        return [
            ("alice", .get, profile, nil, true),
            ("bob", .get, profile, nil, false),
            (nil, .get, profile, nil, false),
            ("alice", .update, profile, renamed, true),
            ("bob", .update, profile, renamed, false),
            ("alice", .update, profile, forged, false),
            ("alice", .update, profile, stolen, false),
            ("alice", .delete, profile, nil, true),
            ("bob", .delete, profile, nil, false),
            ("alice", .list, profile, nil, false),
            ("alice", .create, DocumentPath("heartbeats", "alice_1"), ["userId": .string("alice")], false),
            ("alice", .get, DocumentPath("scheduled_alerts", "alice_1_pre_notification"), nil, false),
        ]
    }()

    @Test func carefulRulesMatchTheTable() {
        let rules = SafeNSoundApp.securityRules(.careful)
        for (uid, operation, path, data, expected) in Self.table {
            let resource: Fields? = path.collection == "users" ? Self.alice : nil
            #expect(rules.allows(Self.request(uid, operation, path, resource: resource, data: data)) == expected, "\(uid ?? "signed out") \(operation) \(path)")
        }
        #expect(rules.allows(Self.request("carol", .create, DocumentPath("users", "carol"), resource: nil, data: ["userId": .string("carol")])))
        #expect(!rules.allows(Self.request("carol", .create, DocumentPath("users", "carol"), resource: nil, data: ["userId": .string("alice")])))
    }

    @Test func authNotNullOnlyAllowsEverySignedInRequest() {
        let rules = SafeNSoundApp.securityRules(.rulesAuthNotNullOnly)
        for (uid, operation, path, data, _) in Self.table {
            let resource: Fields? = path.collection == "users" ? Self.alice : nil
            #expect(rules.allows(Self.request(uid, operation, path, resource: resource, data: data)) == (uid != nil), "\(uid ?? "signed out") \(operation) \(path)")
        }
    }
}
