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

    /// One sentence on what this variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: counters always equal the documents they count."
        case .incrementCollectors: return "totalCollectors drifts above collectorUserIds.count on double collects."
        case .blindLikeIncrement: return "likeCount drifts from the likes sub-collection on repeated likes and unlikes."
        case .likeDedupReentrant: return "A double tap preempted inside LikeManager's de-duplication sends two likes: likeCount +2 for one like."
        case .collectGuardReentrant: return "A double tap preempted between the local collected check and its mark counts one collector twice."
        }
    }

    /// "stampbook".
    public static var app: String { "stampbook" }
}
