/// The instant a snapshot read sees the database at: every commit up to it, none after.
enum ReadPoint: Sendable, Equatable {
    /// After the commit with this sequence number (`Firestore.commitSequence`), fixed at `at`: a
    /// read-only transaction begun without a read time (or at the present instant) sees the
    /// database as it stood when it began.
    case sequence(UInt64, at: Timestamp)
    /// At this past time, commits at exactly this time included (a `readTime`).
    case time(Timestamp)

    /// The instant the point stands for (what ages out of the version window).
    var instant: Timestamp {
        switch self {
        case .sequence(_, let at): at
        case .time(let time): time
        }
    }
}
