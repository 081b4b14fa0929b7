import SimulatedFirebase

/// One day's stored availability (`users/{uid}/availability/{YYYY-MM-DD}`).
public struct UFreeDayAvailability: Sendable, Equatable {
    /// The status the user set for the day.
    public var status: UFreeAvailabilityStatus
    /// The user's note for the day, if any.
    public var note: String?
    /// When the status was last set.
    public var updatedAt: Timestamp
}
