/// What one `processScheduledAlerts` run did.
public struct SafeNSoundSenderReport: Sendable, Equatable {
    public var sentAlertIds: [String] = []
    public var cancelledAlertIds: [String] = []
    public var lostClaimAlertIds: [String] = []
    public var failedAlertIds: [String] = []
}
