/// How a run's virtual time maps to the calendar, so reports can show UTC (and, for scenarios
/// about calendars, each user's local time): virtual time `t` is the instant
/// `zeroUnixNanoseconds + t` nanoseconds after the Unix epoch.
public struct ReportCalendar: Sendable, Hashable, Codable {
    /// The calendar instant of virtual time 0, nanoseconds since the Unix epoch.
    public var zeroUnixNanoseconds: Int64
    /// Users' IANA time zones (calendar-based scenarios only; absent otherwise).
    public var timeZones: [String: String]?

    /// Virtual zero at `zeroUnixNanoseconds`, with users' time zones where the scenario has them.
    package init(zeroUnixNanoseconds: Int64, timeZones: [String: String]? = nil) {
        self.zeroUnixNanoseconds = zeroUnixNanoseconds
        self.timeZones = timeZones
    }

    /// Nanoseconds since the Unix epoch at virtual time `virtualNanoseconds`.
    package func unixNanoseconds(_ virtualNanoseconds: UInt64) -> Int64 { zeroUnixNanoseconds + Int64(virtualNanoseconds) }
}
