/// One event on a user's timeline (virtual time), for per-user timelines in reports.
public struct TimelineEntry: Sendable, Hashable, Codable {
    public let user: String
    public let timeNanoseconds: UInt64
    public let event: String

    public init(user: String, timeNanoseconds: UInt64, event: String) {
        self.user = user
        self.timeNanoseconds = timeNanoseconds
        self.event = event
    }
}
