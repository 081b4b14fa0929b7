/// What a client sends with an upload, as Storage rules see it in `request.resource`: the
/// file's size, its content type and its custom metadata (the bytes themselves are not modelled).
public struct StorageUpload: Sendable, Hashable {
    /// The file's size in bytes.
    public var sizeBytes: Int
    /// Its MIME type (`image/jpeg`, `application/pdf`).
    public var contentType: String
    /// Custom metadata set by the client (`authorEmail`).
    public var metadata: [String: String]

    /// An upload of `sizeBytes` bytes of `contentType` with `metadata`.
    public init(sizeBytes: Int, contentType: String, metadata: [String: String] = [:]) {
        precondition(sizeBytes >= 0, "an upload's size is not negative")
        self.sizeBytes = sizeBytes
        self.contentType = contentType
        self.metadata = metadata
    }

    /// One mebibyte, the unit Storage rules' `size < 3 * 1024 * 1024` counts in.
    public static let mebibyte = 1_048_576
}
