import SimulatedFirebase

/// The `recordHeartbeat` response: `{ success, lastHeartbeat }` plus how many alerts it cancelled.
public struct SafeNSoundHeartbeatResponse: Sendable, Equatable {
    /// True when the heartbeat was recorded.
    public var success: Bool
    /// The heartbeat time the server recorded.
    public var lastHeartbeat: Timestamp
    /// Scheduled alerts this check-in cancelled.
    public var cancelledAlertCount: Int
}
