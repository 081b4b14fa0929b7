import SimulatedFirebase

/// What one `checkMissedHeartbeats` run did.
public struct SafeNSoundCheckReport: Sendable, Equatable {
    /// Users whose due check this run took.
    public var visitedUserCount = 0
    /// Alerts this run created.
    public var createdAlertIds: [String] = []
}
