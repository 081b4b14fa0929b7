import SimulatedFirebase

/// What a reader's avatar view shows for a user (§ 5.3.1).
public enum InspiredAvatar: Sendable, Hashable {
    /// The thumbnail was downloaded: the object's path and generation.
    case image(path: String, generation: Int64)
    /// The "Community-Only" placeholder: the profile says `groups-only` (nothing fetched) or
    /// Storage answered 403.
    case placeholder
    /// A broken image: Storage answered 404 and a fresh read of the profile named the same object
    /// (or the URL is not a Storage URL); the reason says which.
    case broken(String)
}
