import SimulatedFirebase

extension UFreeApp {
    /// The seed's security rules taken literally (`ufree-seed.rules`, the variant
    /// `seed-rules-literal`) for what they cover, `users/{userId}` and its `availability` and
    /// `notifications`; the collections the seed's excerpt does not mention keep the careful rules.
    /// Read literally: anyone signed in reads a user and their days; only the user writes them (so
    /// no accepter can add themselves to the requester's `friendIds`); a notification is read and
    /// written by its recipient alone — the create rule's `request.auth.uid ==
    /// resource.data.senderId` fails on every create, since `resource` is null until the document
    /// exists, so no sender can notify anyone.
    static func seedRules(sharing careful: SecurityRules) -> SecurityRules {
        var rules = SecurityRules()
        rules.match("users/{uid}/availability") { request in
            if request.operation == .get || request.operation == .list { return request.auth != nil }
            return isOwner(request)
        }
        rules.match("users/{uid}/notifications") { request in
            // `allow create: if request.auth.uid == resource.data.senderId` never holds on a create
            // (no `resource`); `allow write: if request.auth.uid == userId` covers creates too.
            guard let auth = request.auth else { return false }
            return auth.uid == request.pathSegment(1)
        }
        rules.match("users") { request in
            if request.operation == .get || request.operation == .list { return request.auth != nil }
            return isOwner(request)
        }
        for pattern in careful.patterns where !["users", "users/{uid}/availability", "users/{uid}/notifications"].contains(pattern) {
            rules.match(pattern) { careful.decide($0).allowed }
        }
        return rules
    }

    /// `isOwner(userId)`: the caller is the user whose id is the path's second segment.
    @Sendable private static func isOwner(_ request: RuleRequest) -> Bool {
        request.auth != nil && request.auth?.uid == request.pathSegment(1)
    }
}
