/// One event on a user's timeline (virtual time), for per-user timelines in reports.
public struct TimelineEntry: Sendable, Hashable, Codable {
    /// The lane: a user id, or `backend` for faults.
    public let user: String
    /// Virtual time of the event.
    public let timeNanoseconds: UInt64
    /// What happened, in one line.
    public let event: String
    /// The kernel step the event was noted at (its position in the trace); nil for the backend's
    /// fault events (the domain does not know steps) and in reports written before steps were kept.
    public var step: UInt64? = nil

    /// An entry with every field given.
    public init(user: String, timeNanoseconds: UInt64, event: String, step: UInt64? = nil) {
        self.user = user
        self.timeNanoseconds = timeNanoseconds
        self.event = event
        self.step = step
    }
}
