import SimulatedFirebase

/// One image a user attaches to a post, as the app has it after its JPEG compression (the
/// bytes are not modelled: size, type and dimensions are what the rules and `mediaItems` read).
public struct KNBPostImage: Sendable, Hashable {
    /// Compressed size in bytes.
    public var sizeBytes: Int
    /// MIME type (`image/jpeg` after compression).
    public var contentType: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// An image of `sizeBytes` bytes (`image/jpeg`, 1024 × 768 unless given).
    public init(sizeBytes: Int, contentType: String = "image/jpeg", width: Int = 1024, height: Int = 768) {
        self.sizeBytes = sizeBytes
        self.contentType = contentType
        self.width = width
        self.height = height
    }
}
