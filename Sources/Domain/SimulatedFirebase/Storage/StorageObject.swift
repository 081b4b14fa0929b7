/// One object in the simulated Cloud Storage bucket: its path, size, content type, custom
/// metadata and generation (a new number for every write of the path, as GCS does).
public struct StorageObject: Sendable, Hashable {
    /// The object's full path in the bucket (`social_posts/p1/0.jpg`).
    public let path: String
    /// Its size in bytes.
    public let sizeBytes: Int
    /// Its MIME type (`image/jpeg`).
    public let contentType: String
    /// Custom metadata (`authorEmail` for KNB's ownership rule).
    public let metadata: [String: String]
    /// The bucket-wide generation this write got (strictly increasing per bucket).
    public let generation: Int64
    /// When the write committed.
    public let updated: Timestamp

    /// An object as the bucket stores it.
    public init(path: String, sizeBytes: Int, contentType: String, metadata: [String: String], generation: Int64, updated: Timestamp) {
        precondition(!path.isEmpty && !path.hasPrefix("/"), "an object path is relative and not empty: \(path)")
        precondition(sizeBytes >= 0, "an object's size is not negative")
        self.path = path
        self.sizeBytes = sizeBytes
        self.contentType = contentType
        self.metadata = metadata
        self.generation = generation
        self.updated = updated
    }
}
