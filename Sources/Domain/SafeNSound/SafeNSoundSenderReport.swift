/// What one `processScheduledAlerts` run did.
public struct SafeNSoundSenderReport: Sendable, Equatable {
    public var sentAlertIds: [String] = []
    public var cancelledAlertIds: [String] = []
    public var lostClaimAlertIds: [String] = []
    public var failedAlertIds: [String] = []
    /// Claimed alerts not yet due under the user's current (raised) threshold, moved to the new deadline.
    public var deferredAlertIds: [String] = []
}
