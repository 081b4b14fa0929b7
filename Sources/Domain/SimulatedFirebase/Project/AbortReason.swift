/// Why Firestore answered ABORTED: typed, so callers decide on the kind, never on message text.
/// The message is built only when something reads it (an abort is common and mostly retried).
public enum AbortReason: Hashable, Sendable, CustomStringConvertible {
    /// The SDK's transaction runner used up its attempts against concurrent writers (MODEL_RULES §2).
    case contention
    /// Another transaction holds the document's commit lock.
    case concurrentCommit(DocumentPath)
    /// The document's version moved between the transaction's read and its commit.
    case versionChanged(DocumentPath, read: UInt64, current: UInt64)
    /// The document's sustained write rate limit (MODEL_RULES §2) refused the write.
    case writeRate(DocumentPath, perSecond: Double)
    /// Two reads of one document inside one transaction saw different versions.
    case readChanged(DocumentPath)
    /// Another commit-time conflict or validation (a read set that changed mid-commit), described.
    case conflict(String)
    /// An older server transaction needed a lock this one held on the document (wound-wait).
    case wounded(DocumentPath)
    /// The server transaction held its locks idle past the idle timeout, or outlived its lifetime.
    case expired(idle: Bool, limit: Duration)

    /// Firestore's message for the reason.
    public var description: String {
        switch self {
        case .contention: "Too much contention on these documents"
        case .concurrentCommit(let path): "\(path) is being committed by a concurrent transaction"
        case .versionChanged(let path, let read, let current): "\(path) changed since the transaction read it (version \(read) → \(current))"
        case .writeRate(let path, let perSecond): "write rate on \(path) exceeds ~\(perSecond)/s"
        case .readChanged(let path): "\(path) changed between two reads of one transaction"
        case .conflict(let why): why
        case .wounded(let path): "an older transaction needed the lock this one held on \(path)"
        case .expired(let idle, let limit): idle
            ? "the transaction held its locks idle past \(limit) and has expired"
            : "the transaction ran past its \(limit) lifetime and has expired"
        }
    }
}
