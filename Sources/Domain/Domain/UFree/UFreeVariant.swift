import SimulatedFirebase

/// Which UFree design runs: the careful default or one literal, flawed reading of the seed.
public enum UFreeVariant: String, AppVariant {
    /// One friendship document per pair, crossing requests auto-accept, server-side nudge cooldown,
    /// "today" in the user's time zone.
    case careful = "careful"
    /// Requests are independent per direction and each accept creates a friendship with a random
    /// id: two users requesting each other at once end with two friendships.
    case twoWayRequests = "two-way-requests"
    /// Nudge protection is only the client's `isProcessing` flag: taps a moment apart all go through.
    case clientTapGuardOnly = "client-tap-guard-only"
    /// "Today" (for the no-past-dates rule) is computed in UTC, rejecting valid days in the Americas.
    case utcToday = "utc-today"
    /// The nudge button's view model guards with its own cooldown table (no server check), but
    /// marks the nudge only after an await (the haptic feedback): a rapid tap preempted there
    /// also passes the guard.
    case nudgeGuardReentrant = "nudge-guard-reentrant"
    /// Offline-first devices with the seed's rules (`allow write: if isOwner(userId)`): a write
    /// queued offline on one device overwrites a newer edit the other device synced meanwhile.
    case lastArrivalWins = "last-arrival-wins"
    /// Offline-first devices stamp each edit with the device's own clock (`Date()`), and the
    /// rules keep the newest stamp: a phone minutes behind loses its later edit to an earlier one
    /// from a tablet set right, and a clock that jumps at a network time sync reorders its own edits.
    case deviceClockStamps = "device-clock-stamps"
    /// Contact discovery as the seed's schema reads: the device stores an unkeyed hash of its
    /// number as `users/{uid}.hashedPhoneNumber` and discovers contacts by querying users by that
    /// hash. Every signed-in user may read `users`, and the hash can be computed by anyone for every
    /// number of a plan, so all numbers are recovered offline.
    case unsaltedPhoneHash = "unsalted-phone-hash"
    /// The blind index without a lookup quota: a signed-in script enumerates the numbering plan
    /// through `discoverContacts` and learns every user's number.
    case lookupWithoutQuota = "lookup-without-quota"
    /// The daily lookup quota kept in the function instance's memory (a module-scope counter):
    /// read, then an await, then the new total written. Two lookups that reach the instance in the
    /// same instant (pipelined on one connection) can both read the same total when the second
    /// runs between the first's read and write: the quota is overspent.
    case quotaInMemory = "quota-in-memory"
    /// Address-book entries are only stripped to their digits before the lookup: national formats
    /// ("(415) 555-0123", "020 7946 0123") are not found.
    case contactsNotNormalized = "contacts-not-normalized"
    /// The bell's badge as a view model counter: +1 for each new unread notification the listener
    /// delivers, −1 when the user marks one read on this device. A read on the user's other device
    /// (a modified document) never lowers it, so the badge stays above the real unread count.
    case badgeCountsEvents = "badge-counts-events"
    /// The inbox's sync line says "✓ Up to date" for any snapshot from the server, ignoring
    /// `hasPendingWrites`: a read the device tapped shows as saved while its write is on the way
    /// (and stays so if the server never takes it, until the listener takes it back).
    case inboxSyncedFromEcho = "inbox-synced-from-echo"
    /// The "Who's free on…" badge takes whichever recomputation publishes last: the view model's,
    /// which read the device store before the background upsert of the refresh, can land after the
    /// store observer's fresh one and show the counts from before the refresh.
    case heatmapUnversionedPublish = "heatmap-unversioned-publish"

    /// The nudge marker compared against half the cooldown ("rapid-tap protection: ignore taps
    /// within 30 seconds" next to the 60 s cooldown): a storm shorter than 30 s never shows it;
    /// two nudges 30–60 s apart both go out.
    case nudgeCooldownHalf = "nudge-cooldown-half"
    /// The who's-free heatmap computed for one week ("the heatmap shows the week"): a badge over
    /// more than seven days counts nobody on the days past the seventh.
    case heatmapOneWeek = "heatmap-one-week"
    /// The seed's security rules taken literally (`UFreeApp.seedRules`, `ufree-seed.rules`): a
    /// notification may be created only in the caller's own inbox (the create rule reads
    /// `resource`, which is null on create), and only a user may write their own document, so an
    /// accepted friend request cannot add the accepter to the sender's `friendIds` and no nudge or
    /// request notification reaches anyone.
    case seedRulesLiteral = "seed-rules-literal"
    /// Before sending, the app lists the caller's sent requests (`friendships where requesterId ==
    /// me and state == pending`, the Sent tab's query) to refuse a duplicate: every document it
    /// returns has the caller as a member, yet the rules judge a query only on what it pins, and it
    /// pins no member, so the server refuses it and no request can be sent.
    case sentRequestsQuery = "sent-requests-query"
    /// "Mark all read" asks the server which notifications are unread at the tap and marks each
    /// (`UFreeApp.markAllRead`): one that reached the server after the screen was drawn, or while
    /// the query travelled, is marked read though the user never saw it.
    case markAllReadByQuery = "mark-all-read-by-query"
    /// One sentence on what this variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: exactly one friendship per pair, one nudge per cooldown, local today."
        case .twoWayRequests: return "Crossing friend requests create two friendships; removing one leaves a ghost friendship."
        case .clientTapGuardOnly: return "Rapid taps (or two devices) deliver several nudges; only an in-flight flag guards them."
        case .utcToday: return "Past-date check uses UTC: an evening user in the Americas cannot set today's status."
        case .nudgeGuardReentrant: return "Two rapid taps preempted between the view model's cooldown check and its mark both nudge."
        case .unsaltedPhoneHash: return "Unkeyed phone hash on the world-readable user document: any signed-in user recovers every number offline."
        case .lookupWithoutQuota: return "Blind-index lookups without a quota: a script enumerates the numbering plan and learns every number."
        case .quotaInMemory: return "Lookup quota counted in the function instance's memory across an await: two pipelined lookups overspend it."
        case .contactsNotNormalized: return "Contacts looked up as bare digits: entries in national format never match."
        case .badgeCountsEvents: return "Badge counted from listener events: a notification read on the user's other device stays counted."
        case .inboxSyncedFromEcho: return "Inbox says up to date for its own unsaved read: the local echo of a pending write taken for the server's answer."
        case .heatmapUnversionedPublish: return "Who's-free badge publishes unversioned: a recomputation that read the store before the background upsert overwrites the fresh one."
        case .lastArrivalWins: return "A status set offline on one device overwrites a newer one set on the user's other device when it syncs."
        case .deviceClockStamps: return "Edits ordered by each device's own clock: a device minutes behind loses its newer edit to an older one."
        case .nudgeCooldownHalf: return "Nudge cooldown compared as 30 s: two nudges 30–60 s apart both go out."
        case .heatmapOneWeek: return "Who's-free badge counts one week: days past the seventh show nobody free."
        case .sentRequestsQuery: return "The duplicate-request guard queries sent requests by requesterId: rules are not filters, every send is refused."
        case .seedRulesLiteral: return "The seed's rules as written: nobody can notify another user or add themselves to a friend's list."
        case .markAllReadByQuery: return "Mark all read marks what the server has unread at the tap: a nudge that arrived after the screen was drawn is read before the user saw it."
        }
    }

    /// "ufree".
    public static var app: String { "ufree" }
}
