/// What one `checkMissedHeartbeats` run did.
public struct SafeNSoundCheckReport: Sendable, Equatable {
    public var visitedUserCount = 0
    public var createdAlertIds: [String] = []
}
