import SimulatedFirebase

/// Which Stampbook design runs: the careful default or one literal, flawed reading of the seed.
public enum StampbookVariant: String, AppVariant {
    /// Collecting, liking, commenting and following each commit in one transaction with the counter.
    case careful = "careful"
    /// "Updates collected_stamps, then increments collectors": two writes, no transaction, so a
    /// double tap or retry counts one collector twice (`totalCollectors` drifts from the array).
    case incrementCollectors = "increment-collectors"
    /// Optimistic like: `setData(likes/{uid})` then `increment(likeCount)` outside a transaction,
    /// so repeated likes over-count and an unlike of a post never liked goes negative.
    case blindLikeIncrement = "blind-like-increment"
    /// LikeManager's request de-duplication checks its in-flight table, awaits its cache, then
    /// records the request (actor reentrancy); the like is read-then-transaction, so a double tap
    /// that slips past de-duplication writes one like and counts it twice.
    case likeDedupReentrant = "like-dedup-reentrant"
    /// StampsManager checks its local collected set, awaits the photo upload, then marks the stamp
    /// collected; the statistics are `increment` + `arrayUnion`: a double tap that slips past the
    /// local check counts one collector twice.
    case collectGuardReentrant = "collect-guard-reentrant"
    /// FeedManager's "Post creation & deletion", literally: deleting a post deletes
    /// `feed_posts/{postId}` only, so its `users/{uid}/posts` copy and its comments and likes survive.
    case postDeleteFeedOnly = "post-delete-feed-only"
    /// CommentManager's optimistic comment: the comment document, then `commentCount` by
    /// `increment` merged into the post outside a transaction, so a retried timeout counts one
    /// comment twice and a comment racing the post's deletion survives it.
    case commentCountIncrement = "comment-count-increment"
    /// The follow system's record, then both counters by `increment`, outside a transaction: a
    /// double tap passes both reads of the record and counts one follow twice.
    case followCountIncrement = "follow-count-increment"
    /// ImageManager's "Parallel uploads with TaskGroup … Error handling per task", literally: each
    /// upload task catches its own error (one attempt) and the collect lists every planned photo
    /// in `photoUrls`, so a photo whose upload failed is a URL to nothing.
    case photoErrorsPerTask = "photo-errors-per-task"
    /// The careful collect with photos, except that a failed collect whose look at its record goes
    /// unanswered (a network incident) keeps the photos it stored so that no URL dangles, and
    /// nothing looks again: the photos no record lists stay in the bucket.
    case photoCleanupNeedsAnswer = "photo-cleanup-needs-answer"

    /// `collectorUserIds` as the profile's "recent collectors": the last ten ids, with
    /// `totalCollectors` its count, so a stamp collected by more than ten users loses collectors.
    case collectorsListCapped = "collectors-list-capped"
    /// One sentence on what this variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: counters always equal the documents they count."
        case .incrementCollectors: return "totalCollectors drifts above collectorUserIds.count on double collects."
        case .blindLikeIncrement: return "likeCount drifts from the likes sub-collection on repeated likes and unlikes."
        case .likeDedupReentrant: return "A double tap preempted inside LikeManager's de-duplication sends two likes: likeCount +2 for one like."
        case .collectGuardReentrant: return "A double tap preempted between the local collected check and its mark counts one collector twice."
        case .postDeleteFeedOnly: return "A deleted post leaves its users/{uid}/posts copy and its comments and likes behind."
        case .commentCountIncrement: return "commentCount drifts from the comments on retried timeouts, and comments outlive a deleted post."
        case .followCountIncrement: return "A double-tapped follow counts one follow twice (followerCount drifts from the records)."
        case .photoErrorsPerTask: return "A photo upload that failed inside its task still gets its URL in photoUrls: a dangling URL."
        case .collectorsListCapped: return "collectorUserIds keeps the last ten collectors and totalCollectors counts them: an eleventh collector drops one."
        case .photoCleanupNeedsAnswer: return "A failed collect that cannot look at its record keeps its photos for good: orphans in the bucket."
        }
    }

    /// "stampbook".
    public static var app: String { "stampbook" }
}
