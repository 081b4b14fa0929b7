/// The handle a transaction body reads and writes through. Writes are buffered and committed
/// atomically after the body returns; the body may run several times, so it must have no
/// side effects (MODEL_RULES §4).
public final class Transaction {
    /// One document the transaction touched: the version it read (nil: not read) and its
    /// buffered writes in call order.
    struct Document {
        let path: DocumentPath
        var readVersion: UInt64?
        var writes: [WriteOperation] = []
        /// Where its first write stands among the documents' first writes (the commit request's
        /// order); `Int.max` while it has none.
        var firstWrite = Int.max
    }

    /// A transaction on a real server (`Backend.remote`): its id there (nil: a device's
    /// optimistic one, whose reads are plain) and who speaks.
    struct RemoteAttempt {
        let id: String?
        let caller: RemoteCaller
    }

    let id: UInt64
    /// Set when the transaction runs on a real server: reads go there inside it.
    let remote: RemoteAttempt?
    /// A server transaction in a pessimistic database: its reads take locks (MODEL_RULES §23).
    let locking: Bool
    private let firestore: Firestore
    private let client: FirestoreClient?
    /// The touched documents, in first-touch order. A transaction touches a few, so a scan with
    /// `==` (short ids and collections compare as two words each) beats hashing both strings of
    /// the path at every read and write; past `indexedFrom`
    /// documents an index takes over, so a 500-document batch stays linear.
    private(set) var documents: [Document] = []
    private var index: [DocumentPath: Int] = [:]
    private var writtenDocuments = 0
    private var hasWrites: Bool { writtenDocuments > 0 }
    private static let indexedFrom = 9

    init(id: UInt64, firestore: Firestore, client: FirestoreClient?, locking: Bool = false, remote: RemoteAttempt? = nil) {
        self.id = id
        self.remote = remote
        self.locking = locking
        self.firestore = firestore
        self.client = client
    }

    /// Reads a document and records its version for validation at commit.
    public func get(_ path: DocumentPath) async throws -> DocumentSnapshot {
        guard !hasWrites else {
            throw BackendError.invalidArgument("a transaction must do all its reads before its writes (\(path))")
        }
        let snapshot: DocumentSnapshot
        if let remote, let server = firestore.remote {
            snapshot = try await server.get(path, as: remote.caller, transaction: remote.id)
        } else if let client {
            snapshot = try await client.get(path)
        } else if locking {
            snapshot = try await firestore.lockedGet(path, transaction: id)
        } else {
            snapshot = await firestore.get(path)
        }
        if let position = position(of: path) {
            if let earlier = documents[position].readVersion, earlier != snapshot.version {
                throw BackendError.aborted(.readChanged(path))
            }
            documents[position].readVersion = snapshot.version
        } else {
            append(Document(path: path, readVersion: snapshot.version))
        }
        return snapshot
    }

    /// Creates the document at commit (ALREADY_EXISTS if it exists).
    public func create(_ path: DocumentPath, _ fields: Fields) { buffer(path, .create(fields)) }
    /// Overwrites the document at commit.
    public func set(_ path: DocumentPath, _ fields: Fields) { buffer(path, .set(fields)) }
    /// Merges `updates` into the document at commit, creating it if missing.
    public func merge(_ path: DocumentPath, _ updates: FieldUpdates) { buffer(path, .merge(updates)) }
    /// Applies `updates` at commit (NOT_FOUND if the document is missing).
    public func update(_ path: DocumentPath, _ updates: FieldUpdates) { buffer(path, .update(updates)) }
    /// Deletes the document at commit.
    public func delete(_ path: DocumentPath) { buffer(path, .delete) }

    /// The buffered writes as one commit request: each document's in call order, the documents in
    /// the order of their first writes.
    var bufferedWrites: [(DocumentPath, WriteOperation)] {
        documents.filter { !$0.writes.isEmpty }.sorted { $0.firstWrite < $1.firstWrite }.flatMap { document in
            document.writes.map { (document.path, $0) }
        }
    }

    /// How many writes the commit request carries.
    var writeCount: Int { documents.reduce(0) { $0 + $1.writes.count } }

    /// The version each written document was read at (0: missing), for an optimistic commit.
    var readVersions: [DocumentPath: UInt64] {
        var versions: [DocumentPath: UInt64] = [:]
        for document in documents where !document.writes.isEmpty { if let read = document.readVersion { versions[document.path] = read } }
        return versions
    }

    /// Appends `operation` to the writes of `path`.
    func buffer(_ path: DocumentPath, _ operation: WriteOperation) {
        if let position = position(of: path) {
            if documents[position].writes.isEmpty {
                documents[position].firstWrite = writtenDocuments
                writtenDocuments += 1
            }
            documents[position].writes.append(operation)
        } else {
            append(Document(path: path, readVersion: nil, writes: [operation], firstWrite: writtenDocuments))
            writtenDocuments += 1
        }
    }

    /// Where `path` is among the touched documents.
    private func position(of path: DocumentPath) -> Int? {
        documents.count < Self.indexedFrom ? documents.firstIndex { $0.path == path } : index[path]
    }

    /// Adds a document not touched before.
    private func append(_ document: Document) {
        documents.append(document)
        if documents.count == Self.indexedFrom {
            for (position, touched) in documents.enumerated() { index[touched.path] = position }
        } else if documents.count > Self.indexedFrom {
            index[document.path] = documents.count - 1
        }
    }
}
