/// How a Firestore database runs server-SDK transactions (a database setting; MODEL_RULES §23,
/// docs/domain.md "Server transactions lock"). The mobile and web SDKs are optimistic whatever it
/// says: their transactions read without locks and commit with preconditions.
public enum ConcurrencyMode: String, Sendable, Hashable, CaseIterable {
    /// Documented default of Firestore (standard edition): a transaction's reads lock the
    /// documents until it commits or aborts; writers wait; the older of two transactions wins.
    case pessimistic
    /// Reads take no locks; a commit fails if a document read has changed since.
    case optimistic
}
