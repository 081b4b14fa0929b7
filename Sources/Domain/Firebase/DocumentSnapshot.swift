/// A document as read at one version; `fields == nil` means it does not exist (at that version).
public struct DocumentSnapshot: Sendable, Hashable {
    public let path: DocumentPath
    /// The fields, or `nil` if the document does not exist.
    public let fields: Fields?
    /// Bumped by every committed change (also by a delete); 0 means never written.
    public let version: UInt64
    /// Commit time of the version.
    public let updateTime: Timestamp

    public init(path: DocumentPath, fields: Fields?, version: UInt64, updateTime: Timestamp) {
        self.path = path
        self.fields = fields
        self.version = version
        self.updateTime = updateTime
    }

    public var exists: Bool { fields != nil }
    public var id: String { path.id }
    public subscript(field: String) -> Value? { fields?[field] }
}
