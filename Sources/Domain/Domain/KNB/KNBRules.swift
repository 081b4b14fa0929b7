import SimulatedFirebase

/// KNB's Firestore security rules, from the seed's rules table and key validation rules.
///
/// Admin status is read live from `users/{email}.isAdmin` (rules' `get()`); the super admin is
/// the hard-coded `admin@knb.com`. Backend-only collections (`kiddushMeta`, `communityMeta`,
/// `knb_marks`) are denied to clients.
public enum KNBRules {
    /// The one account that may promote or demote admins.
    public static let superAdminEmail = "admin@knb.com"

    static func isSuperAdmin(_ request: RuleRequest) -> Bool { request.auth?.email == superAdminEmail }

    static func isAdmin(_ request: RuleRequest) -> Bool {
        guard let email = request.auth?.email else { return false }
        return isSuperAdmin(request) || request.lookup(DocumentPath("users", email))?["isAdmin"] == .bool(true)
    }

    /// The keys whose values differ between `before` and `after` (rules'
    /// `diff(resource.data).affectedKeys()`).
    static func changedKeys(_ before: Fields?, _ after: Fields?) -> Set<String> {
        let keys = Set((before ?? [:]).keys).union((after ?? [:]).keys)
        return keys.filter { !RuleRequest.same(before?[$0], after?[$0]) }
    }

    /// Whether every changed key (`changedKeys`) is one of `allowed` (`affectedKeys().hasOnly`),
    /// without building sets: a key of either side outside `allowed` must hold the same value on
    /// both. Checked at every bid, where building and hashing the two sets would be a hot-path cost.
    static func onlyChanged(_ before: Fields?, _ after: Fields?, among allowed: [String]) -> Bool {
        for (key, value) in before ?? [:] where !allowed.contains(key) && !RuleRequest.same(after?[key], value) { return false }
        for (key, value) in after ?? [:] where !allowed.contains(key) && !RuleRequest.same(before?[key], value) { return false }
        return true
    }

    /// Whether none of `keys` changed (`affectedKeys().hasAny(keys) == false`).
    static func unchanged(_ before: Fields?, _ after: Fields?, _ keys: [String]) -> Bool {
        keys.allSatisfy { RuleRequest.same(before?[$0], after?[$0]) }
    }

    /// KNB's rules file (`knb.rules`), as its team deploys it: the same rules as `rules`.
    public static var rulesText: String { String(decoding: PackageResources.knb_rules, as: UTF8.self) }

    /// KNB's security rules, as deployed by `KNBApp`.
    public static var rules: SecurityRules {
        var rules = SecurityRules()
        rules.match("users") { r in
            let signedIn = r.auth != nil, owner = r.auth?.email == r.path.id
            switch r.operation {
            case .get, .list: return signedIn
            case .create: return owner && r.data?["isAdmin"] != .bool(true)
            case .update:
                if isSuperAdmin(r) { return true }
                return owner && unchanged(r.resource, r.data, ["email", "isAdmin"])
            case .delete: return false
            }
        }
        rules.match("users/{email}/notifications") { r in r.auth?.email != nil && r.auth?.email == r.pathSegment(1) }
        rules.match("honors") { r in
            switch r.operation {
            case .get, .list: return r.auth != nil
            case .create, .delete: return isAdmin(r)
            case .update:
                if isAdmin(r) { return true }
                return r.auth != nil && validBidUpdate(before: r.resource ?? [:], after: r.data ?? [:])
            }
        }
        rules.match("social_posts") { r in
            let email = r.auth?.email
            switch r.operation {
            case .get, .list: return r.auth != nil
            case .create: return email != nil && r.data?["authorEmail"]?.stringValue == email && validPost(r.data ?? [:])
            case .update:
                guard email != nil else { return false }
                if onlyChanged(r.resource, r.data, among: ["likes", "likeCount", "replyCount"]) { return true }
                return r.resource?["authorEmail"]?.stringValue == email
                    && onlyChanged(r.resource, r.data, among: ["content", "editedAt", "mediaItems"]) && validPost(r.data ?? [:])
            case .delete: return email != nil && (r.resource?["authorEmail"]?.stringValue == email || isAdmin(r))
            }
        }
        rules.match("kiddush_sponsorships") { r in
            switch r.operation {
            case .get, .list: return r.auth != nil
            case .create: return r.auth?.email != nil && r.data?["sponsorEmail"]?.stringValue == r.auth?.email
            case .update: return isAdmin(r)
            case .delete: return r.auth?.email != nil && (r.resource?["sponsorEmail"]?.stringValue == r.auth?.email || isAdmin(r))
            }
        }
        rules.match("seat_reservations") { r in
            switch r.operation {
            case .get, .list: return r.auth != nil
            case .create: return r.auth?.email != nil && r.data?["reservedBy"]?.stringValue == r.auth?.email
            case .update: return false
            case .delete: return r.auth?.email != nil && (r.resource?["reservedBy"]?.stringValue == r.auth?.email || isAdmin(r))
            }
        }
        rules.match("kiddushCalendar") { r in r.operation == .get || r.operation == .list }
        rules.match("communityOccasions") { r in (r.operation == .get || r.operation == .list) && r.auth != nil }
        rules.match("kiddushMeta") { _ in false }
        rules.match("communityMeta") { _ in false }
        rules.match("knb_marks") { _ in false }
        return rules
    }

    /// "Bid must increase, exactly one new bid entry per update", nothing else changes but the
    /// bid fields, and no bid on a sold honor. A Buy Now (isSold false → true) sets currentBid
    /// to buyNowPrice; the seed does not say it must exceed the current bid, so it need not.
    static func validBidUpdate(before: Fields, after: Fields) -> Bool {
        guard before["isSold"] != .bool(true) else { return false }
        let beforeBids = before["bids"]?.arrayValue ?? [], afterBids = after["bids"]?.arrayValue ?? []
        guard afterBids.count == beforeBids.count + 1 else { return false }
        // The client appends to the array it read, so both are views of one buffer and the
        // prefix check compares counts; another buffer is compared element by element, in place
        // (docs/performance.md, "Where the bytes and instructions go: the data structures").
        guard beforeBids.isPrefix(of: afterBids) else { return false }
        guard onlyChanged(before, after, among: ["currentBid", "currentWinner", "currentWinnerEmail", "bids", "isSold"]) else {
            return false
        }
        let newBid = after["currentBid"]?.doubleValue ?? 0, oldBid = before["currentBid"]?.doubleValue ?? 0
        if after["isSold"] == .bool(true) { return newBid == before["buyNowPrice"]?.doubleValue }
        return newBid > oldBid
    }

    static func validPost(_ data: Fields) -> Bool {
        let content = data["content"]?.stringValue ?? ""
        let media = data["mediaItems"]?.arrayValue ?? []
        return content.count <= 140 && (!content.isEmpty || !media.isEmpty) && media.count <= 4
    }
}
