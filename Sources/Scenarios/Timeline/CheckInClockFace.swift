import Domain
import FirebaseHarness
import Foundation
import Harness
import Scenarios
import SimulatedFirebase

/// Prints instants for `rehearse timeline`'s table without a DateFormatter per row: each zone's
/// UTC offsets and printed names (`zzz` in the POSIX locale, e.g. PST, GMT+9) are read from
/// Foundation once per offset period over the table's span (`nextDaylightSavingTimeTransition`),
/// and every row is then integer arithmetic. Same text as the patterns
/// `yyyy-MM-dd HH:mm` (UTC) and `EEE MMM d, h:mm a zzz` (local), at a fraction of the cost.
struct CheckInClockFace {
    /// One period of constant offset in one zone, from `start` (Unix seconds) on.
    struct Period {
        let start: Int64
        let offsetSeconds: Int64
        let name: String
    }

    private let from: Int64
    private let through: Int64
    private var zones: [String: [Period]] = [:]
    /// The zones of the latest rows, searched by equality (rows share a handful of zone strings,
    /// so this rarely hashes), each with the last second it printed: rows come in time order and
    /// many share an instant (one 2-minute run sends many alerts at once).
    private var recent: [RecentZone] = []
    private var lastUTC: (minute: Int64, text: [UInt8]) = (.min, [])
    /// Zones remembered in `recent`.
    static let recentZonesLimit = 16

    private struct RecentZone {
        let identifier: String
        let periods: [Period]
        var second: Int64 = .min
        var text: [UInt8] = []
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A face for instants between `from` and `through` (others still print, from the nearest period).
    init(from: Timestamp, through: Timestamp) {
        self.from = from.unixSeconds - 2 * 86_400
        self.through = through.unixSeconds + 2 * 86_400
    }

    /// `2026-01-13 06:00` (UTC).
    func utc(_ instant: Timestamp) -> String {
        var bytes: [UInt8] = []
        Self.formatUTC(instant, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `utc(instant)`'s UTF-8 to `out` (the table writes bytes, not a String per cell);
    /// the text of the last minute is kept.
    mutating func appendUTC(_ instant: Timestamp, to out: inout [UInt8]) {
        let minute = LocalTimeOracle.floorDiv(instant.unixSeconds, 60)
        if lastUTC.minute != minute {
            lastUTC.text.removeAll(keepingCapacity: true)
            Self.formatUTC(instant, to: &lastUTC.text)
            lastUTC.minute = minute
        }
        out.append(contentsOf: lastUTC.text)
    }

    private static func formatUTC(_ instant: Timestamp, to out: inout [UInt8]) {
        let seconds = instant.unixSeconds
        let days = LocalTimeOracle.floorDiv(seconds, 86_400)
        let (year, month, day) = LocalTimeOracle.civil(fromDays: days)
        let second = Int(seconds - days * 86_400)
        Self.appendDecimal(year, to: &out)
        out.append(UInt8(ascii: "-"))
        Self.appendTwo(month, to: &out)
        out.append(UInt8(ascii: "-"))
        Self.appendTwo(day, to: &out)
        out.append(UInt8(ascii: " "))
        Self.appendTwo(second / 3600, to: &out)
        out.append(UInt8(ascii: ":"))
        Self.appendTwo(second % 3600 / 60, to: &out)
    }

    /// `Mon Jan 12, 10:00 PM PST` in `zone` (UTC for an unknown identifier).
    mutating func local(_ instant: Timestamp, zone: String) -> String {
        var bytes: [UInt8] = []
        appendLocal(instant, zone: zone, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `local(instant, zone:)`'s UTF-8 to `out`.
    mutating func appendLocal(_ instant: Timestamp, zone: String, to out: inout [UInt8]) {
        let seconds = instant.unixSeconds
        if let index = recent.firstIndex(where: { $0.identifier == zone }) {
            if recent[index].second != seconds {
                let periods = recent[index].periods
                recent[index].text.removeAll(keepingCapacity: true)
                Self.formatLocal(seconds, periods: periods, to: &recent[index].text)
                recent[index].second = seconds
            }
            out.append(contentsOf: recent[index].text)
            return
        }
        let periods = self.periods(zone)
        if recent.count < Self.recentZonesLimit {
            var entry = RecentZone(identifier: zone, periods: periods, second: seconds)
            Self.formatLocal(seconds, periods: periods, to: &entry.text)
            out.append(contentsOf: entry.text)
            recent.append(entry)
        } else {
            Self.formatLocal(seconds, periods: periods, to: &out)
        }
    }

    private static func formatLocal(_ seconds: Int64, periods: [Period], to out: inout [UInt8]) {
        var low = 0, high = periods.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if periods[middle].start <= seconds { low = middle } else { high = middle - 1 }
        }
        let period = periods[low]
        let local = seconds + period.offsetSeconds
        let days = LocalTimeOracle.floorDiv(local, 86_400)
        let (_, month, day) = LocalTimeOracle.civil(fromDays: days)
        let second = Int(local - days * 86_400)
        let hour = second / 3600, minute = second % 3600 / 60
        out.append(contentsOf: weekdays[LocalTimeOracle.weekday(days)].utf8)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: months[month - 1].utf8)
        out.append(UInt8(ascii: " "))
        appendDecimal(day, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: " "))
        appendDecimal(hour % 12 == 0 ? 12 : hour % 12, to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwo(minute, to: &out)
        out.append(contentsOf: hour < 12 ? " AM ".utf8 : " PM ".utf8)
        out.append(contentsOf: period.name.utf8)
    }

    /// Appends `"\(value)"` (a leading `-` for negatives), without building a String.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    /// Appends `value` with a `0` before values below 10, as the `HH`/`mm`/`MM`/`dd` patterns print.
    static func appendTwo(_ value: Int, to out: inout [UInt8]) {
        if value < 10 { out.append(UInt8(ascii: "0")) }
        appendDecimal(value, to: &out)
    }

    private mutating func periods(_ identifier: String) -> [Period] {
        if let known = zones[identifier] { return known }
        let zone = TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "zzz"
        func period(at seconds: Int64) -> Period {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            return Period(start: seconds, offsetSeconds: Int64(zone.secondsFromGMT(for: date)), name: formatter.string(from: date))
        }
        var result = [period(at: from)]
        var cursor = Date(timeIntervalSince1970: TimeInterval(from))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 <= TimeInterval(through), next > cursor {
            let seconds = Int64(next.timeIntervalSince1970.rounded(.down))
            result.append(period(at: seconds))
            cursor = next
        }
        zones[identifier] = result
        return result
    }
}
