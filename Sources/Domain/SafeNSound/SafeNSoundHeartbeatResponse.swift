/// The `recordHeartbeat` response: `{ success, lastHeartbeat }` plus how many alerts it cancelled.
public struct SafeNSoundHeartbeatResponse: Sendable, Equatable {
    public var success: Bool
    public var lastHeartbeat: Timestamp
    public var cancelledAlertCount: Int
}
