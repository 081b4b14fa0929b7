import SimulatedFirebase

/// What one `processScheduledAlerts` run did.
public struct SafeNSoundSenderReport: Sendable, Equatable {
    /// Alerts this run sent.
    public var sentAlertIds: [String] = []
    /// Alerts this run cancelled (a check-in or pause came first).
    public var cancelledAlertIds: [String] = []
    /// Alerts another run had claimed.
    public var lostClaimAlertIds: [String] = []
    /// Alerts whose delivery failed (left for a later run).
    public var failedAlertIds: [String] = []
    /// Claimed alerts not yet due under the user's current (raised) threshold, moved to the new deadline.
    public var deferredAlertIds: [String] = []
}
