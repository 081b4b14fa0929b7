import SimulatedFirebase

/// What `KNBClient.createPost(_:images:)` did: the post, the images it carries, and the upload
/// attempts it took (more attempts than images: a transient failure was retried).
public struct KNBMediaPost: Sendable, Hashable {
    /// The post's path (`social_posts/{postId}`).
    public var path: DocumentPath
    /// Images stored and listed in `mediaItems`, in the order given.
    public var storedImages: Int
    /// Images dropped after every upload attempt failed.
    public var droppedImages: Int
    /// Upload attempts over all images.
    public var uploadAttempts: Int
}
