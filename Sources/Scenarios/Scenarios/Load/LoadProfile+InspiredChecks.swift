import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

// studio-claim's checks for its load profile: what claimants were told while the load runs, and
// the studios as a function reads them once it settled (from the server in real mode).
extension LoadProfile {
    /// The checks studio-claim's profile judges.
    static let studioClaimChecks = [
        StudioClaimScenario.Check.oneOwnerTold, StudioClaimScenario.Check.claimedHasOwner, StudioClaimScenario.Check.claimKept,
    ]

    /// A claim of `studioId` that `owner` was told succeeded: at most one user may ever be told so.
    static func told(_ studioId: String, owner: String, book: StudioClaimScenario.ClaimBook, _ checks: LoadCheckLog) {
        let owners = Set(book.told(studioId, owner: owner))
        checks.always(StudioClaimScenario.Check.oneOwnerTold, failure: owners.count == 1 ? nil : "\(studioId): \(owners.sorted()) were each told they own it")
    }

    /// Every studio claimed exactly when it has an owner, and each studio someone was told they
    /// own claimed by them.
    static func settleStudios(_ app: InspiredApp, book: StudioClaimScenario.ClaimBook, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let studios = await app.backend.firestore.fetch("studios")
        for studio in studios {
            let claimed = studio["isClaimed"] == .bool(true), owner = studio["ownerId"]?.stringValue
            checks.always(StudioClaimScenario.Check.claimedHasOwner, failure: claimed == (owner != nil) ? nil : "\(studio.id) isClaimed \(claimed) ownerId \(owner ?? "null")")
        }
        for (studioId, entry) in book.snapshot {
            guard let told = entry.owners.last else { continue }
            let fields = studios.first { $0.id == studioId }?.fields ?? [:]
            let owner = fields["ownerId"]?.stringValue
            checks.always(StudioClaimScenario.Check.claimKept, failure: fields["isClaimed"] == .bool(true) && owner == told ? nil
                : "\(told) was told they own \(studioId), but it is \(fields["isClaimed"] == .bool(true) ? "owned by \(owner ?? "nobody")" : "a shadow again")")
        }
    }
}

// privacy-access's checks for its load profile, judged the same way.
extension LoadProfile {
    /// The checks privacy-access's profile judges.
    static let privacyAccessChecks = [
        PrivacyAccessScenario.Check.noUnauthorisedRead, PrivacyAccessScenario.Check.usernamesUnique, PrivacyAccessScenario.Check.likeCountNotNegative,
        PrivacyAccessScenario.Check.likeCountMatchesLikes, PrivacyAccessScenario.Check.everyUserNamed,
    ]

    /// Usernames unique and given to every user; each post's `stats.likeCount` not negative and
    /// equal to its likes.
    static func settleProfiles(_ app: InspiredApp, _ checks: LoadCheckLog) async {
        await app.backend.waitUntilIdle()
        let firestore = app.backend.firestore
        var owners: [String: String] = [:]
        for user in await firestore.fetch("users") {
            guard let username = user["username"]?.stringValue else {
                checks.always(PrivacyAccessScenario.Check.everyUserNamed, failure: "\(user.id) has no username")
                continue
            }
            checks.always(PrivacyAccessScenario.Check.everyUserNamed, failure: nil)
            checks.always(PrivacyAccessScenario.Check.usernamesUnique, failure: owners[username].map { "\(user.id) and \($0) both have username \(username)" })
            owners[username] = user.id
        }
        for post in await firestore.fetch("posts") {
            let likes = await firestore.fetch("posts/\(post.id)/likes").count
            let count = post["stats"]?.mapValue?["likeCount"]?.intValue ?? 0
            checks.always(PrivacyAccessScenario.Check.likeCountNotNegative, failure: count >= 0 ? nil : "post \(post.id) likeCount \(count)")
            checks.always(PrivacyAccessScenario.Check.likeCountMatchesLikes, failure: count == Int64(likes) ? nil
                : "post \(post.id) likeCount \(count) but \(likes) like document(s)")
        }
    }
}
