/// Which Stampbook design runs: the careful default or one literal, flawed reading of the seed.
public enum StampbookVariant: String, CaseIterable, Sendable, Codable {
    /// Collecting, liking, commenting and following each commit in one transaction with the counter.
    case careful = "careful"
    /// "Updates collected_stamps, then increments collectors": two writes, no transaction, so a
    /// double tap or retry counts one collector twice (`totalCollectors` drifts from the array).
    case incrementCollectors = "increment-collectors"
    /// Optimistic like: `setData(likes/{uid})` then `increment(likeCount)` outside a transaction,
    /// so repeated likes over-count and an unlike of a post never liked goes negative.
    case blindLikeIncrement = "blind-like-increment"

    /// One sentence on what this variant gets wrong.
    public var summary: String {
        switch self {
        case .careful: return "Careful design: counters always equal the documents they count."
        case .incrementCollectors: return "totalCollectors drifts above collectorUserIds.count on double collects."
        case .blindLikeIncrement: return "likeCount drifts from the likes sub-collection on repeated likes and unlikes."
        }
    }
}
