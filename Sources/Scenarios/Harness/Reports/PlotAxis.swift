import Foundation

/// Axis arithmetic and labels shared by the report's SVG plots: clock-friendly ticks from 0 to
/// at least the maximum (so the maximum is always inside the plot), round UTC times on time axes, natural ordering of
/// lane names (u2 before u10), and calendar labels for virtual times.
package enum PlotAxis {
    /// Steps a duration axis may use, in nanoseconds: 1-2-5 below a second, then the clock's own
    /// units (15 s, 30 s, 1 min, 5 min, 15 min, 1 h, 6 h, 1 day …), so ticks read 10m00s, not 16m40s.
    static let durationSteps: [Double] = {
        var steps: [Double] = []
        var magnitude = 1.0
        while magnitude < 1e9 {
            steps += [1, 2, 5].map { $0 * magnitude }
            magnitude *= 10
        }
        let second = 1e9
        steps += [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400].map { $0 * second }
        steps += [2, 7, 14, 28, 56, 112, 364].map { $0 * 86_400 * second }
        return steps
    }()

    /// The step of `durationSteps` for `span` split into about `count` parts.
    static func durationStep(_ span: Double, count: Int) -> Double {
        let raw = span / Double(max(1, count))
        return durationSteps.first { $0 >= raw } ?? durationSteps.last! * (raw / durationSteps.last!).rounded(.up)
    }

    /// Duration ticks from 0 in clock-friendly steps, the last at or above `maximum`.
    package static func durationTicks(upTo maximum: Double, count: Int = 5) -> [Double] {
        guard maximum > 0, maximum.isFinite else { return [0, 1_000] }
        let step = durationStep(maximum, count: count)
        let top = (maximum / step).rounded(.up) * step
        return Swift.stride(from: 0.0, through: top + step / 2, by: step).map { $0 }
    }

    /// Ticks over the virtual interval [low, high] at round times: multiples of a clock-friendly
    /// step in UTC when the calendar is known (10:00Z, 10:05Z …), else in virtual time.
    static func timeTicks(low: UInt64, high: UInt64, calendar: ReportCalendar?, count: Int = 6) -> [UInt64] {
        guard high > low else { return [low] }
        let step = Int64(durationStep(Double(high - low), count: count))
        let zero = calendar?.zeroUnixNanoseconds ?? 0
        let first = Int64(low) + zero
        var tick = first >= 0 ? (first + step - 1) / step * step : first / step * step
        var ticks: [UInt64] = []
        while tick - zero <= Int64(high) {
            if tick - zero >= Int64(low) { ticks.append(UInt64(tick - zero)) }
            tick += step
        }
        return ticks
    }

    /// A duration tick's label (`0` for zero).
    static func durationLabel(_ nanoseconds: Double) -> String { nanoseconds == 0 ? "0" : ReportFormat.duration(UInt64(nanoseconds)) }

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
