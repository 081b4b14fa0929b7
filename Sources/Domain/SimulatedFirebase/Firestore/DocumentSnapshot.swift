/// A document as read at one version; `fields == nil` means it does not exist (at that version).
public struct DocumentSnapshot: Sendable, Hashable {
    /// The document read.
    public let path: DocumentPath
    /// The fields, or `nil` if the document does not exist.
    public let fields: Fields?
    /// Bumped by every committed change (also by a delete); 0 means never written.
    public let version: UInt64
    /// Commit time of the version.
    public let updateTime: Timestamp

    /// A snapshot of `path` (nil `fields`: the document does not exist).
    public init(path: DocumentPath, fields: Fields?, version: UInt64, updateTime: Timestamp) {
        self.path = path
        self.fields = fields
        self.version = version
        self.updateTime = updateTime
    }

    /// Whether the document existed when read.
    public var exists: Bool { fields != nil }
    /// The document id.
    public var id: String { path.id }
    /// The value of a top-level field, nil if absent or the document does not exist.
    public subscript(field: String) -> Value? { fields?[field] }
}
