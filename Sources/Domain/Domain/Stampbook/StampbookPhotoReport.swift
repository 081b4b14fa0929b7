import SimulatedFirebase

/// What a collect with photos did with the photos: stored and listed in `photoUrls`, dropped
/// after every attempt failed, and the upload attempts over all photos.
public struct StampbookPhotoReport: Sendable, Hashable {
    /// Photos stored and listed in the record's `photoUrls`.
    public var stored: Int
    /// Photos dropped after `StampbookApp.photoUploadAttempts` failed attempts.
    public var dropped: Int
    /// Upload attempts over all photos (more than `stored + dropped`: retries happened).
    public var attempts: Int
}
