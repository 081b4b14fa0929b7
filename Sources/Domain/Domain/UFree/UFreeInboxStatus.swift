/// The inbox's sync line, drawn from its listener's snapshot metadata.
public enum UFreeInboxStatus: String, Sendable, Hashable {
    /// No snapshot yet.
    case loading
    /// The listener's connection is down: the copy may be stale ("Offline").
    case offline
    /// A read the user tapped is shown but not yet saved on the server ("Syncing…").
    case syncing
    /// What is shown is what the server sent ("✓ Up to date").
    case synced
}
