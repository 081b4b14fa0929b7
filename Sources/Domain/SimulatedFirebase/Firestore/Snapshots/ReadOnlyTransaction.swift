/// The handle a read-only transaction's body reads through (the admin SDK's
/// `runTransaction(fn, {readOnly: true, readTime})`): every read sees the database at one
/// instant, takes no lock and waits for none; there is nothing to write with. Without a read
/// time, the instant is when the first read reaches the server (the SDK begins the transaction
/// with it).
public final class ReadOnlyTransaction {
    private let firestore: Firestore
    private let readTime: Timestamp?
    /// The instant every read sees, fixed by the first read.
    private var point: ReadPoint?

    init(firestore: Firestore, readTime: Timestamp?) {
        self.firestore = firestore
        self.readTime = readTime
    }

    /// A document as it stood at the transaction's instant (an admin round trip).
    public func get(_ path: DocumentPath) async throws(BackendError) -> DocumentSnapshot {
        try await getAll([path])[0]
    }

    /// Several documents at the transaction's instant, in the order asked, in one round trip
    /// (`getAll`).
    public func getAll(_ paths: [DocumentPath]) async throws(BackendError) -> [DocumentSnapshot] {
        await firestore.adminRoundTrip()
        try? Invocation.admitCurrent()  // a read has no effect to stop; it counts toward a crash
        let point: ReadPoint
        if let fixed = self.point {
            point = fixed
            try firestore.checkWindow(fixed.instant)
        } else {
            point = try firestore.readPoint(readTime: readTime)
        }
        self.point = point
        var snapshots: [DocumentSnapshot] = []
        snapshots.reserveCapacity(paths.count)
        for path in paths { snapshots.append(try await firestore.snapshot(path, at: point)) }
        return snapshots
    }
}
