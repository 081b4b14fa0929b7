import SimulatedFirebase

/// Which KNB design runs: the careful default, or one design taken literally from the seed with
/// the race or bug it invites (MODEL_RULES, "Bugs that designs like the seeds' invite").
public enum KNBVariant: String, AppVariant, CustomStringConvertible {
    /// Bids retried after contention, Buy Now in a transaction, de-duplicated triggers with
    /// markers, likes and bookings in transactions on deterministic ids.
    case careful = "careful"
    /// One client transaction per bid and no app-level retry: a burst above ~1 write/s exhausts
    /// the 5 attempts and the bid is lost with ABORTED.
    case bidBurstLosesBids = "bid-burst-loses-bids"
    /// Bids retried after contention as the careful design does, but without a request id: a
    /// commit that landed while its answer was lost (a lossy network) is bid again or reported as
    /// failed, and the app never looks whether it landed.
    case bidWithoutRequestId = "bid-without-request-id"
    /// Buy Now reads the honor, then writes isSold/currentBid/currentWinner with a plain update:
    /// a bid committed between the read and the write is overruled (sold below an accepted bid).
    case buyNowOutsideTransaction = "buy-now-outside-transaction"
    /// The OUTBID handler re-reads the live honor instead of using before/after: under bursts it
    /// notifies the wrong user or skips an intermediate winner.
    case outbidRereadsLiveDoc = "outbid-rereads-live-doc"
    /// The OUTBID handler does not de-duplicate by bid id: a duplicate event sends two OUTBIDs.
    case outbidNoDedup = "outbid-no-dedup"
    /// The OUTBID handler de-duplicates events in a module-level set of bid ids (the function
    /// instance's globals) and adds the notification with a random id: a duplicate served by the
    /// same warm instance is dropped, one that lands on a new instance after a cold start is not.
    case outbidDedupInInstance = "outbid-dedup-in-instance"
    /// The OUTBID handler notifies the previous winner even when they raised their own bid.
    case outbidSelfNotify = "outbid-self-notify"
    /// totalPledged kept by `increment` in a trigger without a per-bid marker: drifts under
    /// duplicate events.
    case totalPledgedIncrement = "total-pledged-increment"
    /// Like = `arrayUnion(email)` + `increment(1)` outside a transaction: likeCount drifts upward
    /// on double taps and retries.
    case likeArrayUnionIncrement = "like-arrayunion-increment"
    /// Unlike = `arrayRemove(email)` + `increment(-1)` without checking membership: an unlike by a
    /// non-liker drives likeCount down (negative).
    case unlikeNonLikerDecrements = "unlike-nonliker-decrements"
    /// replyCount incremented by a trigger without a marker: over-counts under duplicate events.
    case replyCountTriggerIncrement = "reply-count-trigger-increment"
    /// Kiddush bookings created with `add()` (random id): two bookings of one Shabbat both succeed.
    case kiddushRandomId = "kiddush-random-id"
    /// Kiddush bookings written with `setData` on the date id without a transactional check: an
    /// admin silently overwrites an existing booking; a user gets PERMISSION_DENIED, not "booked".
    case kiddushSetDataOverwrite = "kiddush-setdata-overwrite"
    /// Booking email sent by check `bookingEmailSentAt` → send → set: two invocations both send.
    case kiddushCheckSendSet = "kiddush-check-send-set"
    /// Seat reservations created with `add()` (random id): one seat can be reserved twice.
    case seatRandomId = "seat-random-id"
    /// `releaseSeat` as a plain delete: after a lost answer the app's retry finds the seat rebooked
    /// by someone else and is refused, so the user is told the release failed though it happened.
    case seatReleasePlainDelete = "seat-release-plain-delete"
    /// The like button's in-flight guard checks, awaits the post cache, then marks (actor
    /// reentrancy); the like itself is read-then-`arrayUnion` + `increment(1)`: a double tap
    /// that slips past the guard counts one like twice.
    case likeGuardReentrant = "like-guard-reentrant"
    /// `onPostReplyCreate`, which reads the parent post to notify its author, keeps `replyCount`
    /// from that read: admin `get`, then `update(replyCount: read + 1)`. Another reply's
    /// invocation landing between the read and the write is overwritten (a lost count).
    case replyCountReadThenWrite = "reply-count-read-then-write"
    /// The like notification written per trigger event, as the Notification Flow reads literally
    /// ("Cloud Function trigger fires … Write AppNotification to users/{email}/notifications",
    /// an `add()` each time, no key): a duplicate event or a re-like after an unlike notifies the
    /// author again, where the design wants one POST_LIKE per liker.
    case likeNotifyPerEvent = "like-notify-per-event"
    /// The post-delete cascade as the Feed section reads literally ("cascading delete attempts to
    /// remove replies"): `onPostDelete` removes the replies its query finds and nothing else looks
    /// again, so a reply that commits after that query stays, an orphan of a deleted post.
    case replyCascadeQueryOnly = "reply-cascade-query-only"
    /// `onKiddushSponsorshipDelete` as the Function Inventory reads literally ("Cleans up calendar
    /// entry"): it deletes `kiddushCalendar/{date}` whatever booking the entry now shows, so a
    /// cancellation's late trigger erases the entry of the booking that took the date after it.
    case kiddushDeleteClearsDate = "kiddush-delete-clears-date"
    /// `onUserUpdate` as the Function Inventory reads literally ("Propagates name changes across
    /// posts, replies, and bids"): for each honor with the user's bids, admin `get`, rewrite the
    /// `bids` array with the event's new name, `update(bids:)`. A bid committed between the read
    /// and the write is erased; and the event's name, not the live one, is written, so an older
    /// event handled last restores an old name.
    case userUpdateReadThenWrite = "user-update-read-then-write"
    /// The careful propagation (a transaction per honor and post, so no bid is erased), except
    /// that it writes the event's name rather than the live one, trusting renames to arrive in
    /// order: an older rename's event handled after a newer one (held back, reordered, or retried
    /// after an aborted transaction) restores the old name (events are unordered at any distance).
    case userUpdateEventName = "user-update-event-name"
    /// `syncKiddushCalendar` reads which calendar dates are app bookings first (a query for
    /// `source == "app"`), then fetches and parses the website, then batch-writes every other
    /// date: a booking whose calendar entry commits during the fetch is overwritten by the
    /// website's row (the seed's "if doc has source==app, don't overwrite", checked too early).
    case syncReadsAppEntriesFirst = "sync-reads-app-entries-first"
    /// The calendar sync's "hash comparison: skip write if content unchanged" taken literally: a
    /// cancelled app booking deletes its calendar entry, and while the page stays the same every
    /// run skips, so the date's website row never comes back.
    case syncHashSkipStale = "sync-hash-skip-stale"
    /// `syncCommunityOccasions` writes the occasions it parsed (set by deterministic id) but never
    /// deletes one the website took down: not the seed's "full replace via batch write".
    case occasionsUpsertOnly = "occasions-upsert-only"
    /// `syncCommunityOccasions` clears the collection first, then fetches the page and writes what
    /// it lists: a fetch that fails (the website down for hours) leaves the occasions screen empty
    /// until a run gets through.
    case occasionsClearedBeforeFetch = "occasions-cleared-before-fetch"
    /// Storage rules that check the image's type and owner but not its size: "3 MB max" kept only
    /// by the app's own JPEG compression (§ Social Feed "compressed to JPEG"), so any signed-in
    /// client that skips the app stores a file of any size in the bucket.
    case storageRulesNoSizeCheck = "storage-rules-no-size-check"
    /// The careful post with images, except that a post whose write failed and whose look back
    /// goes unanswered (a network incident) is taken as not written and its images are deleted:
    /// when the write had landed, the post names images that no longer exist.
    case postCleanupWithoutAnswer = "post-cleanup-without-answer"

    /// totalPledged as the schema describes it, "the amount the user has pledged", kept as the
    /// bid the user now wins on the honor that changed: set from the live honor in one server
    /// transaction, so it is exact while an auction has one honor; a user winning two honors shows
    /// only the last one's bid.
    case totalPledgedFromHonor = "total-pledged-from-honor"
    /// onOutbid, onPostLikeUpdate and onKiddushSponsorshipDelete deployed without "retry on
    /// failure", as the seed lists them: an invocation whose instance crashes or times out loses its
    /// event (no OUTBID, no like notification, a cancelled date left on the calendar).
    case triggersWithoutRetries = "triggers-without-retries"
    /// The booking email claimed for good before it is sent: an invocation that dies between the
    /// claim and the send leaves a claim nobody takes over, and the office never hears of the booking.
    case bookingClaimNeverExpires = "booking-claim-never-expires"
    /// ADMIN_POST sent user by user (read the user, write the notification, one FCM call), as the
    /// seed's pseudo-code loops: past ~800 users the fan-out outlives its 60 s timeout, and the
    /// user it dies at keeps an in-app notification but never gets the push (a retry skips them).
    case broadcastOneByOne = "broadcast-one-by-one"
    /// ADMIN_POST to every token in one `sendEachForMulticast`: past 500 tokens FCM refuses the
    /// call (INVALID_ARGUMENT) and no device rings.
    case broadcastSingleMulticast = "broadcast-single-multicast"
    /// ADMIN_POST to every user, without reading `notificationPrefs.adminPosts`.
    case broadcastIgnoresPreference = "broadcast-ignores-preference"
    /// Tokens FCM reports UNREGISTERED are kept: every later send to the user tries them again.
    case staleTokensKept = "stale-tokens-kept"
    /// The fan-out's lease written with a plain `set` inside its claim transaction (`db.doc().set()`
    /// for `t.set()`): the write waits for the transaction's own read lock until the transaction
    /// expires (60 s idle), past the function's timeout, so the announcement never goes out. An
    /// optimistic database would pass it: the commit aborts once, and the retry finds its own lease.
    case broadcastLeasePlainWrite = "broadcast-lease-plain-write"
    /// The fan-out's claim takes any unexpired lease for another delivery's: when the claim's
    /// commit lands and its answer is lost (DEADLINE_EXCEEDED inside the function), the SDK runs
    /// the transaction again, it finds the lease it just took, and the announcement is dropped.
    case broadcastOwnLeaseBusy = "broadcast-own-lease-busy"
    /// The fan-out records its progress on `knb_broadcasts/{postId}` after every chunk, about ten
    /// writes a second on one document: past the sustained write rate a record is refused
    /// (ABORTED), the fan-out throws after that chunk's pushes, and the redelivery rings it again.
    case broadcastProgressEveryChunk = "broadcast-progress-every-chunk"
    /// The booking email serialized by deploying its trigger with `maxInstances: 1` instead of a
    /// claim: check `bookingEmailSentAt`, send, mark. One instance runs one event at a time, so a
    /// duplicate waits and finds the mark, until a surge briefly runs a second instance past the
    /// limit (the platform allows it) and both send.
    case kiddushOneInstance = "kiddush-one-instance"
    /// ADMIN_POST pushes sent with a time to live of zero ("an announcement is news now": FCM's
    /// `ttl: 0`, APNs' `apns-expiration: 0`): a phone that is away when one is sent never rings
    /// for it, and the platform keeps nothing to deliver when it returns.
    case broadcastPushNowOrNever = "broadcast-push-now-or-never"
    /// The device's FCM token stored only at sign-in, as the seed's sign-in flow lists it ("Store
    /// FCM token"): when FCM replaces the token, the app never records the new one, the fan-out's
    /// send to the old one answers UNREGISTERED, and that phone never rings again.
    case tokenStoredAtSignIn = "token-stored-at-sign-in"
    /// One-line description of what the variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: no lost bid, no double booking, counters equal what they count, one notification per event."
        case .bidBurstLosesBids: return "bids in one 5-attempt transaction, no app retry: bursts lose bids (ABORTED)"
        case .bidWithoutRequestId: return "bids without a request id: a bid whose answer was lost is reported failed though it landed"
        case .buyNowOutsideTransaction: return "Buy Now as read-then-update: a concurrent bid is overruled, sold below an accepted bid"
        case .outbidRereadsLiveDoc: return "OUTBID handler re-reads the live honor: wrong or skipped recipient under bursts"
        case .outbidNoDedup: return "OUTBID not de-duplicated by bid id: duplicate events send two pushes"
        case .outbidDedupInInstance: return "OUTBID de-duplicated in the instance's memory: a duplicate on a cold-started instance sends a second push"
        case .outbidSelfNotify: return "OUTBID sent to a user who raised their own bid"
        case .totalPledgedIncrement: return "totalPledged via increment in a trigger: drifts under duplicate events"
        case .likeArrayUnionIncrement: return "like via arrayUnion + increment(1) outside a transaction: likeCount drifts up"
        case .unlikeNonLikerDecrements: return "unlike via arrayRemove + increment(-1): non-liker unlike drives likeCount negative"
        case .replyCountTriggerIncrement: return "replyCount via increment in a trigger: over-counts under duplicate events"
        case .kiddushRandomId: return "kiddush booking via add(): two bookings of one Shabbat both succeed"
        case .kiddushSetDataOverwrite: return "kiddush booking via setData on the date id: silent overwrite (admin) or PERMISSION_DENIED"
        case .kiddushCheckSendSet: return "booking email via check-send-set: two invocations both send"
        case .seatRandomId: return "seat reservation via add(): one seat reserved twice"
        case .likeGuardReentrant: return "like tap guard checks, awaits, then marks: a preempted double tap reads 'not liked' twice and counts +2"
        case .replyCountReadThenWrite: return "reply trigger reads the parent, then writes replyCount = read + 1: an invocation between the two is lost"
        case .likeNotifyPerEvent: return "POST_LIKE written with add() per trigger event: duplicates and re-likes notify the author twice"
        case .replyCascadeQueryOnly: return "post delete removes only the replies its query finds: a reply committed after it is orphaned"
        case .userUpdateEventName: return "name propagation writes the event's name: an older rename's event handled after a newer one restores the old name"
        case .userUpdateReadThenWrite: return "name propagation reads each honor, then writes its bids array back: a bid committed in between is erased"
        case .syncReadsAppEntriesFirst: return "calendar sync reads the app's dates, then fetches the site, then writes: a booking made during the fetch is overwritten"
        case .syncHashSkipStale: return "calendar sync skips an unchanged page: a cancelled app booking's date never gets its website row back"
        case .occasionsUpsertOnly: return "occasions sync upserts what it parsed and deletes nothing: a notice taken down stays in the app"
        case .seatReleasePlainDelete: return "seat release as a plain delete: a retry after a lost answer is refused (the seat is rebooked), and the user is told it failed though it happened"
        case .occasionsClearedBeforeFetch: return "occasions sync clears the collection before it fetches: while the website is down the occasions screen is empty"
        case .storageRulesNoSizeCheck: return "storage rules without the 3 MB check: a client that skips the app's compression stores any size"
        case .postCleanupWithoutAnswer: return "a post whose write failed and cannot be read back loses its images: if the write landed, a dangling URL"
        case .kiddushDeleteClearsDate: return "booking delete clears the date's calendar entry unconditionally: a late trigger erases the rebooking's entry"
        case .totalPledgedFromHonor: return "totalPledged set from the honor that changed: a user winning two honors shows only one"
        case .triggersWithoutRetries: return "notification and cancellation triggers without retries: a crashed or timed-out invocation loses its event"
        case .bookingClaimNeverExpires: return "booking email claimed for good before sending: an invocation dying in between means no email, ever"
        case .broadcastOneByOne: return "ADMIN_POST user by user: past ~800 users the fan-out times out and the user it dies at never gets the push"
        case .broadcastSingleMulticast: return "ADMIN_POST to every token in one multicast: past 500 tokens FCM refuses it and nobody is notified"
        case .broadcastIgnoresPreference: return "ADMIN_POST to every user, ignoring notificationPrefs.adminPosts"
        case .staleTokensKept: return "tokens FCM reports UNREGISTERED are never deleted"
        case .broadcastProgressEveryChunk: return "ADMIN_POST progress written after every chunk: past ~1 write/s a write is refused and the chunk rings again"
        case .tokenStoredAtSignIn: return "FCM token stored only at sign-in: once FCM replaces it, that phone never rings again"
        case .broadcastPushNowOrNever: return "ADMIN_POST pushes with a time to live of zero: a phone away when one is sent never rings for it"
        case .kiddushOneInstance: return "booking email serialized by maxInstances: 1 (check, send, mark): a second instance past the limit sends it twice"
        case .broadcastOwnLeaseBusy: return "ADMIN_POST claim mistakes its own lease for another's: a claim whose answer was lost drops the announcement"
        case .broadcastLeasePlainWrite: return "ADMIN_POST lease written with a plain set inside its transaction: it waits for its own lock, so nothing is sent"
        }
    }

    /// The variant's kebab-case name.
    public var description: String { rawValue }

    /// "knb".
    public static var app: String { "knb" }
}
