import SimulatedFirebase

/// What one `sendDailyReminders` run did, by user id, in the order it visited them.
public struct SafeNSoundReminderReport: Sendable, Equatable {
    /// Users sent their reminder.
    public var sentUserIds: [String] = []
    /// Users whose reminder was due but not needed (a check-in that local day, or no push token).
    public var skippedUserIds: [String] = []
    /// Users whose push failed; the claim was released for a later run.
    public var failedUserIds: [String] = []
    /// Users whose due reminder another run (or an earlier one) had already claimed or handled.
    public var lostClaimUserIds: [String] = []
}
