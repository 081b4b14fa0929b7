/// One object in the simulated Cloud Storage bucket: its path, size, content type, custom
/// metadata, generation (a new number for every write of the path, as GCS does) and download
/// token (what a download URL carries; docs/domain.md, "Cloud Storage").
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
    /// The token its download URLs carry (`firebaseStorageDownloadTokens`): whoever holds a URL
    /// with it reads the object without the rules, until it is revoked.
    public let downloadToken: String

    /// An object as the bucket stores it.
    public init(path: String, sizeBytes: Int, contentType: String, metadata: [String: String], generation: Int64, updated: Timestamp, downloadToken: String = "") {
        precondition(!path.isEmpty && !path.hasPrefix("/"), "an object path is relative and not empty: \(path)")
        precondition(sizeBytes >= 0, "an object's size is not negative")
        self.path = path
        self.sizeBytes = sizeBytes
        self.contentType = contentType
        self.metadata = metadata
        self.generation = generation
        self.updated = updated
        self.downloadToken = downloadToken
    }

    /// The same object with another download token (a revocation).
    func withDownloadToken(_ token: String) -> StorageObject {
        StorageObject(path: path, sizeBytes: sizeBytes, contentType: contentType, metadata: metadata, generation: generation, updated: updated, downloadToken: token)
    }
}
