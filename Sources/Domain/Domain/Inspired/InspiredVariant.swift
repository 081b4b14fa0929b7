import SimulatedFirebase

/// Which Inspired design runs: the careful default or one literal, flawed reading of the seed.
public enum InspiredVariant: String, AppVariant {
    /// Usernames reserved through `usernames/{name}` in a transaction; likes and `likeCount` in one transaction.
    case careful = "careful"
    /// "Ensure uniqueness" as query-then-write: two profiles created at once can get the same username.
    case unreservedUsername = "unreserved-username"
    /// The like document and the `likeCount` increment are two writes, so a double like counts twice.
    case likeWithoutTransaction = "like-without-transaction"
    /// The like button's in-flight guard checks, awaits, then marks (actor reentrancy); the like
    /// is read-then-transaction trusting that read: a double tap that slips past the guard writes
    /// one like and counts it twice.
    case likeTapGuardReentrant = "like-tap-guard-reentrant"
    /// § 2.2 "Shadow State: Seeded from Google Places … isClaimed: false", written as the whole
    /// document on every seeding run: a claimed studio reverts to a shadow and loses its owner.
    case reseedOverwritesClaim = "reseed-overwrites-claim"
    /// The claiming callable reads the studio, checks `isClaimed`, then writes the owner in a
    /// second admin-SDK call: two owners claiming at once are both told they own it.
    case claimCheckThenWrite = "claim-check-then-write"
    /// § 2.3 "Denormalized author info (ID, username, avatar, privacy) for fast rendering", and
    /// § 5.3.1 handling the inconsistency on the client: posts keep the author's thumbnail URL and
    /// privacy as they were when posted, so a user who makes their avatar groups-only still has
    /// their thumbnail URL (PII) in every post any signed-in user reads.
    case authorMetadataNeverUpdated = "author-metadata-never-updated"
    /// A users onUpdate trigger copies the event's `after` author info into the user's posts with
    /// plain writes: when two privacy changes' events arrive out of order (or one twice), an older
    /// one is written last and the posts show settings the user no longer has.
    case authorMetadataFromEvent = "author-metadata-from-event"
    /// § 2.1's schema, literally: `joinedCommunities` is a field of the profile, so anyone who may
    /// read the profile (a public avatar) reads the whole list whatever `showJoinedGroups` says.
    case joinedGroupsInProfile = "joined-groups-in-profile"
    /// § 4.1/4.2 literally: avatars at the fixed `images/avatars/{uid}_{version}.jpg` and "a
    /// delete-then-upload sequence when updating media": a reader between the delete and the
    /// upload gets a 404 for the URL the profile still names, and a failed upload leaves the
    /// profile pointing at nothing.
    case avatarDeleteThenUpload = "avatar-delete-then-upload"
    /// The careful avatar update, except that a failed switch whose read of the profile goes
    /// unanswered (a network incident) keeps every object it uploaded or read so that no URL
    /// dangles, and nothing looks again: the objects the profile never names stay in the bucket.
    case avatarCleanupNeedsAnswer = "avatar-cleanup-needs-answer"
    /// § 5.3.1 counts on a 403 from Storage once a user goes private, but the profile's
    /// `thumbnailUrl` is a download URL whose token bypasses the Storage rules: nothing revokes
    /// it, so whoever copied it while the avatar was public (from the profile or a post) keeps
    /// reading the image of a user who has since made it groups-only.
    case avatarURLOutlivesPrivacy = "avatar-url-outlives-privacy"

    /// The profile page takes a snapshot without the profile for "This account doesn't exist"
    /// even when it comes from the device's copy (`isFromCache`): a page opened while its
    /// connection is down tells the viewer an existing account is gone.
    case profileMissingFromCache = "profile-missing-from-cache"
    /// The profile page shows a live listener's last snapshot and ignores the listener's error: when
    /// the profile goes private (access revoked while listening ends the listener with
    /// PERMISSION_DENIED), the page keeps showing it for as long as it stays open.
    case profilePageIgnoresListenError = "profile-page-ignores-listen-error"
    /// `seedShadowStudios` reads one page of the Places search (Google returns 20 results a page)
    /// and never asks for the next: an area with more than twenty studios seeds only twenty.
    case placesFirstPageOnly = "places-first-page-only"
    /// assignUsername and propagateAuthorMetadata deployed without "retry on failure": an
    /// invocation whose instance crashes or that times out loses its event (a nameless user, posts
    /// showing settings the author changed).
    case triggersWithoutRetries = "triggers-without-retries"
    /// Privacy settings written sparsely with `set(merge: true)`, a default implied by its absence
    /// (`avatarPrivacy` always sent, which the rules require): the writer expects the map to be
    /// replaced, but a merge keeps the stored keys it does not name, so going private leaves
    /// `isProfilePublic: true` beside a groups-only avatar, which the rules refuse — the user
    /// cannot make a public profile private again.
    case privacySparseMerge = "privacy-sparse-merge"
    /// assignUsername creates the reservation blindly in one server transaction, the suffix drawn
    /// inside it from the display name's stream, counting on a taken name to retry the
    /// transaction with the next suffix; a failed create is not contention, so the admin SDK
    /// answers ALREADY_EXISTS at once and the second "Sam Lee" stays nameless.
    case usernameBlindCreate = "username-blind-create"
    /// One sentence on what this variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: unique usernames, likeCount equals the likes sub-collection."
        case .usernameBlindCreate: return "Username reserved by a blind create, a collision counted on to retry: ALREADY_EXISTS is final, the user stays nameless."
        case .privacySparseMerge: return "Privacy merged sparsely: the stored isProfilePublic survives a switch to private, the rules refuse it, the profile stays public."
        case .unreservedUsername: return "Username collision: concurrent sign-ups with one display name can share name#1234."
        case .likeWithoutTransaction: return "likeCount drift: a repeated like overwrites likes/{uid} but increments twice."
        case .likeTapGuardReentrant: return "likeCount drift: a double tap preempted inside the like button's guard counts one like twice."
        case .authorMetadataNeverUpdated: return "Posts keep a thumbnail URL (PII) and privacy the author has since made groups-only."
        case .joinedGroupsInProfile: return "A public profile shows its joined communities to everyone, whatever showJoinedGroups says."
        case .authorMetadataFromEvent: return "Reordered or duplicate profile events leave posts showing settings the author no longer has."
        case .reseedOverwritesClaim: return "A seeding run rewrites a claimed studio as a shadow: the owner loses it and their edits."
        case .avatarDeleteThenUpload: return "Avatar update deletes, then uploads: readers see a broken image; a failed upload leaves none."
        case .avatarURLOutlivesPrivacy: return "Going groups-only revokes nothing: an avatar URL copied while it was public still shows the image to a stranger."
        case .avatarCleanupNeedsAnswer: return "A failed avatar switch that cannot read the profile back keeps its objects for good: orphans in the bucket."
        case .claimCheckThenWrite: return "Two owners claiming one studio at once are both told it is theirs; the last write wins."
        case .profilePageIgnoresListenError: return "An open profile page ignores its listener's PERMISSION_DENIED: a profile made private stays on screen."
        case .profileMissingFromCache: return "A profile page opened offline says \"This account doesn't exist\" from the device's empty copy."
        case .placesFirstPageOnly: return "Shadow studios seeded from the first page of Places results: studios past the twentieth never appear."
        case .triggersWithoutRetries: return "Profile triggers without retries: a crashed or timed-out invocation leaves a user nameless or posts stale."
        }
    }

    /// "inspired".
    public static var app: String { "inspired" }
}
