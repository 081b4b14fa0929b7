import Foundation

/// Axis arithmetic and labels shared by the report's SVG plots: "nice" ticks (1, 2, 5 × 10^k)
/// from 0 to at least the maximum (so the maximum is always inside the plot), natural ordering of
/// lane names (u2 before u10), and calendar labels for virtual times.
package enum PlotAxis {
    /// Ticks from 0 in steps of 1, 2 or 5 × 10^k, the last at or above `maximum` (about `count` of them).
    package static func ticks(upTo maximum: Double, count: Int = 5) -> [Double] {
        guard maximum > 0, maximum.isFinite else { return [0, 1] }
        let raw = maximum / Double(count)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        let top = (maximum / step).rounded(.up) * step
        return Swift.stride(from: 0.0, through: top + step / 2, by: step).map { $0 }
    }

    /// Ticks over [low, high] (time axes that do not start at 0), each a multiple of a nice step.
    static func ticks(from low: Double, to high: Double, count: Int = 6) -> [Double] {
        guard high > low else { return [low] }
        let raw = (high - low) / Double(count)
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var tick = (low / step).rounded(.up) * step
        var result: [Double] = []
        while tick <= high + step * 1e-9 {
            result.append(tick)
            tick += step
        }
        return result
    }

    /// `a` before `b` in natural order: runs of digits compare as numbers (u2 < u10 < u11).
    package static func naturalLess(_ a: String, _ b: String) -> Bool {
        let left = chunks(a), right = chunks(b)
        for (x, y) in zip(left, right) where x != y {
            if let i = Int(x), let j = Int(y) { return i != j ? i < j : x < y }
            return x < y
        }
        return left.count != right.count ? left.count < right.count : a < b
    }

    private static func chunks(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        var digits: Bool?
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if digits != nil && digits != isDigit {
                result.append(current)
                current = ""
            }
            current.append(character)
            digits = isDigit
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// `2025-03-09 09:59:58Z` (seconds) for a calendar instant in nanoseconds since the Unix epoch.
    package static func utc(_ unixNanoseconds: Int64, fractional: Bool = false) -> String {
        calendarText(unixNanoseconds, zone: TimeZone(identifier: "UTC")!, fractional: fractional) + "Z"
    }

    /// The same instant in `zoneIdentifier` with its offset: `2025-03-09 03:00:00 −05:00`; nil for an unknown zone.
    package static func local(_ unixNanoseconds: Int64, zoneIdentifier: String) -> String? {
        guard let zone = TimeZone(identifier: zoneIdentifier) else { return nil }
        let date = Date(timeIntervalSince1970: Double(unixNanoseconds) / 1e9)
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "−" : "+"
        return calendarText(unixNanoseconds, zone: zone, fractional: false)
            + String(format: " %@%02d:%02d", sign, abs(offset) / 3600, (abs(offset) % 3600) / 60)
    }

    private static func calendarText(_ unixNanoseconds: Int64, zone: TimeZone, fractional: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let seconds = unixNanoseconds >= 0 ? unixNanoseconds / 1_000_000_000 : (unixNanoseconds - 999_999_999) / 1_000_000_000
        let date = Date(timeIntervalSince1970: Double(seconds))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        var text = String(format: "%04d-%02d-%02d %02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
        if fractional { text += String(format: ".%03d", (unixNanoseconds - seconds * 1_000_000_000) / 1_000_000) }
        return text
    }

    /// A short label for a time-axis tick: the calendar time in UTC when known (`10:00:05Z`, with
    /// the date when the axis spans days), else the virtual elapsed time.
    static func timeTick(_ virtualNanoseconds: UInt64, calendar: ReportCalendar?, spanNanoseconds: UInt64) -> String {
        guard let calendar else { return ReportFormat.duration(virtualNanoseconds) }
        let full = utc(calendar.unixNanoseconds(virtualNanoseconds), fractional: spanNanoseconds < 10_000_000_000)
        // "2025-03-09 09:59:58.123Z": drop the date on axes shorter than a day.
        return spanNanoseconds >= 86_400_000_000_000 ? String(full.dropLast(4)) + "Z" : String(full.dropFirst(11))
    }
}
