import SimulatedFirebase

/// A day's availability, stored as `status: Int (0-4)`; a day with no document is "unknown".
///
/// The seed names 5 states in one place (free, busy, afternoonOnly, eveningOnly, unknown) and 5
/// colours in another (free, busy, morning, afternoon, evening) with `status: Int (0-4)`. The five
/// stored states are the five colours; `unknown` is not stored, it is the absence of a document.
public enum UFreeAvailabilityStatus: Int, CaseIterable, Sendable, Codable {
    case free = 0
    case busy = 1
    case morningOnly = 2
    case afternoonOnly = 3
    case eveningOnly = 4

    /// Whether the user is free at least part of the day.
    public var isPartlyFree: Bool { self == .morningOnly || self == .afternoonOnly || self == .eveningOnly }
}
