/// The handle a transaction body reads and writes through. Writes are buffered and committed
/// atomically after the body returns; the body may run several times, so it must have no
/// side effects (MODEL_RULES §4).
public final class Transaction {
    let id: UInt64
    private let firestore: Firestore
    private let client: FirestoreClient?
    private(set) var readVersions: [DocumentPath: UInt64] = [:]
    private(set) var writes: [DocumentPath: [WriteOperation]] = [:]

    init(id: UInt64, firestore: Firestore, client: FirestoreClient?) {
        self.id = id
        self.firestore = firestore
        self.client = client
    }

    /// Reads a document and records its version for validation at commit.
    public func get(_ path: DocumentPath) async throws -> DocumentSnapshot {
        guard writes.isEmpty else {
            throw BackendError.invalidArgument("a transaction must do all its reads before its writes (\(path))")
        }
        let snapshot: DocumentSnapshot
        if let client {
            snapshot = try await client.get(path)
        } else {
            snapshot = await firestore.get(path)
        }
        if let earlier = readVersions[path], earlier != snapshot.version {
            throw BackendError.aborted(.conflict("\(path) changed between two reads of one transaction"))
        }
        readVersions[path] = snapshot.version
        return snapshot
    }

    /// Creates the document at commit (ALREADY_EXISTS if it exists).
    public func create(_ path: DocumentPath, _ fields: Fields) { writes[path, default: []].append(.create(fields)) }
    /// Overwrites the document at commit.
    public func set(_ path: DocumentPath, _ fields: Fields) { writes[path, default: []].append(.set(fields)) }
    /// Merges `updates` into the document at commit, creating it if missing.
    public func merge(_ path: DocumentPath, _ updates: [String: FieldUpdate]) { writes[path, default: []].append(.merge(updates)) }
    /// Applies `updates` at commit (NOT_FOUND if the document is missing).
    public func update(_ path: DocumentPath, _ updates: [String: FieldUpdate]) { writes[path, default: []].append(.update(updates)) }
    /// Deletes the document at commit.
    public func delete(_ path: DocumentPath) { writes[path, default: []].append(.delete) }
}
