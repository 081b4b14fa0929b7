/// The instant a snapshot read sees the database at: every commit up to it, none after.
enum ReadPoint: Sendable, Equatable {
    /// After the commit with this sequence number (`Firestore.commitSequence`): a read-only
    /// transaction begun without a read time sees the database as it stood when it began.
    case sequence(UInt64)
    /// At this time, commits at exactly this time included (a `readTime`).
    case time(Timestamp)
}
