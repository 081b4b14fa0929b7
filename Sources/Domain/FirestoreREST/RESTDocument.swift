import SimulatedFirebase

/// One document as a Firestore REST server returns it: fields (nil: missing) and its times.
public struct RESTDocument: Sendable, Hashable {
    /// Where it lives.
    public var path: DocumentPath
    /// Its fields, nil when the document does not exist.
    public var fields: Fields?
    /// The commit time of its current version (nil when missing).
    public var updateTime: Timestamp?
    /// When it was created (nil when missing).
    public var createTime: Timestamp?

    /// A document at `path`.
    public init(path: DocumentPath, fields: Fields?, updateTime: Timestamp? = nil, createTime: Timestamp? = nil) {
        self.path = path
        self.fields = fields
        self.updateTime = updateTime
        self.createTime = createTime
    }
}
