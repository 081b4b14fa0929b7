import SimulatedFirebase

extension SafeNSoundApp {
    /// SafeNSound's rules file (`safensound.rules`), as its team deploys it: the same rules as
    /// `securityRules(.careful)`.
    public static var rulesText: String { String(decoding: PackageResources.safensound_rules, as: UTF8.self) }
    /// The variant `rules-dev-catch-all`'s rules file: the careful rules and a catch-all read after them.
    public static var devCatchAllRulesText: String { String(decoding: PackageResources.safensound_dev_catch_all_rules, as: UTF8.self) }
    /// The indexes file as deployed: the due-alert query's composite index (`status`, `scheduledFor`).
    public static var indexesText: String { String(decoding: PackageResources.firestore_indexes_json, as: UTF8.self) }
    /// `indexesText`, parsed.
    public static var indexes: FirestoreIndexes {
        do { return try FirestoreIndexes(json: indexesText) } catch { preconditionFailure("SafeNSound's own index file: \(error)") }
    }

    /// SafeNSound's Firestore security rules (docs/domain.md, "SafeNSound security rules").
    ///
    /// The document names only `request.auth != null` and "Firebase Functions verify
    /// `request.auth.uid` matches userId"; the careful rules are the owner-only reading of that:
    /// `users/{uid}` is read, created, updated and deleted by `uid` alone, and an update may not
    /// change `lastHeartbeat` or `userId` (a check-in goes through `recordHeartbeat`, with its rate
    /// limit and the server's clock). `heartbeats` and `scheduled_alerts` match no rule, so clients
    /// are denied (the admin SDK the functions use bypasses rules). The variant
    /// `rules-auth-not-null-only` allows every request of a signed-in user on the three collections;
    /// `rules-dev-catch-all` adds a read rule for every document after the careful ones.
    /// The rules file equal to `securityRules(variant)`: the careful one's, the catch-all's for
    /// `rules-dev-catch-all`; nil for `rules-auth-not-null-only`, which has no file.
    static func rulesFile(_ variant: SafeNSoundVariant) -> String? {
        switch variant {
        case .rulesDevCatchAll: devCatchAllRulesText
        case .rulesAuthNotNullOnly: nil
        default: rulesText
        }
    }

    public static func securityRules(_ variant: SafeNSoundVariant) -> SecurityRules {
        var rules = SecurityRules()
        if variant == .rulesAuthNotNullOnly {
            for collection in ["users", "heartbeats", "scheduled_alerts"] {
                rules.match(collection) { $0.auth != nil }
            }
            return rules
        }
        rules.match("users") { request in
            guard let uid = request.auth?.uid, uid == request.path.id else { return false }
            switch request.operation {
            case .get, .delete:
                return true
            case .create:
                return request.data?["userId"]?.stringValue == uid
            case .update:
                // Rules' `diff()`: numbers by value (`1 == 1.0`), so an int rewritten as its double is no change.
                return RuleRequest.same(request.data?["userId"], request.resource?["userId"])
                    && RuleRequest.same(request.data?["lastHeartbeat"], request.resource?["lastHeartbeat"])
            case .list:
                return false
            }
        }
        if variant == .rulesDevCatchAll {
            rules.match("{document=**}") { request in
                request.auth != nil && (request.operation == .get || request.operation == .list)
            }
        }
        return rules
    }
}
