/// Why Firestore answered ABORTED: typed, so callers decide on the kind, never on message text.
public enum AbortReason: Hashable, Sendable, CustomStringConvertible {
    /// The SDK's transaction runner used up its attempts against concurrent writers (MODEL_RULES §2).
    case contention
    /// One commit-time conflict or validation (a concurrent commit, a version change, the write
    /// rate limit, a read set that changed), described.
    case conflict(String)

    /// Firestore's message for the reason.
    public var description: String {
        switch self {
        case .contention: "Too much contention on these documents"
        case .conflict(let why): why
        }
    }
}
