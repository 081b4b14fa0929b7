import Foundation
import SimulatedFirebase

/// A calendar day, the id of `availability/{YYYY-MM-DD}`; "today" is always computed in a given time zone.
public struct UFreeDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2026.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// The calendar day `year`-`month`-`day`.
    public init(year: Int, month: Int, day: Int) {
        precondition((1...12).contains(month), "month out of range")
        precondition((1...31).contains(day), "day out of range")
        self.year = year
        self.month = month
        self.day = day
    }

    /// The document id, e.g. "2026-01-12".
    public var key: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The day as `YYYY-MM-DD`.
    public var description: String { key }

    /// Earlier days order first.
    public static func < (lhs: UFreeDay, rhs: UFreeDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The local calendar day containing `instant` in `timeZoneIdentifier` (UTC if unknown).
    public static func containing(_ instant: Timestamp, timeZoneIdentifier: String) -> UFreeDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZoneIdentifier) ?? TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(instant.unixSeconds)))
        return UFreeDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }

    /// The day `count` days after this one (calendar arithmetic, no time zone involved).
    public func adding(days count: Int) -> UFreeDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        let end = calendar.date(byAdding: .day, value: count, to: start)!
        let parts = calendar.dateComponents([.year, .month, .day], from: end)
        return UFreeDay(year: parts.year!, month: parts.month!, day: parts.day!)
    }
}
