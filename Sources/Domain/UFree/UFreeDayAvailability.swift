/// One day's stored availability (`users/{uid}/availability/{YYYY-MM-DD}`).
public struct UFreeDayAvailability: Sendable, Equatable {
    public var status: UFreeAvailabilityStatus
    public var note: String?
    public var updatedAt: Timestamp
}
