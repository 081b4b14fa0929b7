import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

/// The reference "last check-in" text of the emergency email, computed without Foundation or ICU:
/// each time zone heartbeat-timeline uses has its UTC offsets, its printed names (a table of the
/// known answers for the "MMM d, yyyy 'at' h:mm a zzz" pattern in the POSIX locale) and its
/// published DST rule, so a DST slip in the domain's formatter cannot hide in the check.
package enum LocalTimeOracle {
    /// When a zone observes daylight time.
    enum DaylightRule {
        /// US since 2007: second Sunday of March 02:00 local standard time to the first Sunday
        /// of November 02:00 local daylight time.
        case unitedStates
        /// EU since 1996: last Sunday of March 01:00 UTC to the last Sunday of October 01:00 UTC.
        case europeanUnion
        /// New South Wales since 2008: first Sunday of October 02:00 local standard time to the
        /// first Sunday of April 03:00 local daylight time (southern summer spans the new year).
        case newSouthWales
    }

    /// One zone: standard offset, printed names, and its daylight rule (nil: no DST).
    struct Zone {
        let standardOffsetSeconds: Int64
        let standardName: String
        let daylightName: String
        let rule: DaylightRule?
    }

    /// The zones of the scenario. Names are what the POSIX locale prints for `zzz`: US zones
    /// have their abbreviations, the others print GMT offsets.
    static let zones: [String: Zone] = [
        "America/Los_Angeles": Zone(standardOffsetSeconds: -8 * 3600, standardName: "PST", daylightName: "PDT", rule: .unitedStates),
        "America/New_York": Zone(standardOffsetSeconds: -5 * 3600, standardName: "EST", daylightName: "EDT", rule: .unitedStates),
        "Europe/London": Zone(standardOffsetSeconds: 0, standardName: "GMT", daylightName: "GMT+1", rule: .europeanUnion),
        "Asia/Tokyo": Zone(standardOffsetSeconds: 9 * 3600, standardName: "GMT+9", daylightName: "GMT+9", rule: nil),
        "Australia/Sydney": Zone(standardOffsetSeconds: 10 * 3600, standardName: "GMT+10", daylightName: "GMT+11", rule: .newSouthWales),
    ]

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Mar 8, 2026 at 3:00 AM PDT" for `instant` in `timeZone`; nil for a zone not in the table.
    static func format(_ instant: Timestamp, timeZone: String) -> String? {
        guard let zone = zones[timeZone] else { return nil }
        let seconds = floorDiv(instant.unixNanoseconds, 1_000_000_000)
        let daylight = isDaylight(seconds, zone)
        let local = seconds + zone.standardOffsetSeconds + (daylight ? 3600 : 0)
        let (year, month, day) = civil(fromDays: floorDiv(local, 86_400))
        let secondOfDay = local - floorDiv(local, 86_400) * 86_400
        let hour = Int(secondOfDay / 3600), minute = Int(secondOfDay % 3600 / 60)
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        let minuteText = minute < 10 ? "0\(minute)" : "\(minute)"
        return "\(monthNames[month - 1]) \(day), \(year) at \(hour12):\(minuteText) \(hour < 12 ? "AM" : "PM") \(daylight ? zone.daylightName : zone.standardName)"
    }

    /// Whether daylight time is in effect in `timeZone` at `instant` (nil: zone not in the table).
    static func isDaylight(_ instant: Timestamp, timeZone: String) -> Bool? {
        zones[timeZone].map { isDaylight(floorDiv(instant.unixNanoseconds, 1_000_000_000), $0) }
    }

    static func isDaylight(_ unixSeconds: Int64, _ zone: Zone) -> Bool {
        guard let rule = zone.rule else { return false }
        let year = civil(fromDays: floorDiv(unixSeconds + zone.standardOffsetSeconds, 86_400)).year
        let standard = zone.standardOffsetSeconds
        switch rule {
        case .unitedStates:
            let start = utc(year, 3, nthSunday(year, 3, 2), hour: 2) - standard
            let end = utc(year, 11, nthSunday(year, 11, 1), hour: 2) - (standard + 3600)
            return unixSeconds >= start && unixSeconds < end
        case .europeanUnion:
            let start = utc(year, 3, lastSunday(year, 3), hour: 1)
            let end = utc(year, 10, lastSunday(year, 10), hour: 1)
            return unixSeconds >= start && unixSeconds < end
        case .newSouthWales:
            let end = utc(year, 4, nthSunday(year, 4, 1), hour: 3) - (standard + 3600)
            let start = utc(year, 10, nthSunday(year, 10, 1), hour: 2) - standard
            return unixSeconds < end || unixSeconds >= start
        }
    }

    /// Seconds since 1970 of `year-month-day hour:00` read as UTC.
    static func utc(_ year: Int, _ month: Int, _ day: Int, hour: Int) -> Int64 {
        days(fromCivil: year, month, day) * 86_400 + Int64(hour) * 3600
    }

    /// Day of month of the `n`-th Sunday of `month`.
    static func nthSunday(_ year: Int, _ month: Int, _ n: Int) -> Int {
        let firstWeekday = weekday(days(fromCivil: year, month, 1))  // 0 = Sunday
        return 1 + (7 - firstWeekday) % 7 + 7 * (n - 1)
    }

    /// Day of month of the last Sunday of `month` (a 31-day month: March, October).
    static func lastSunday(_ year: Int, _ month: Int) -> Int {
        let lastDay = 31
        return lastDay - weekday(days(fromCivil: year, month, lastDay))
    }

    /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    package static func weekday(_ days: Int64) -> Int { Int((days % 7 + 11) % 7) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    package static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month), d = Int64(day)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of `days` since 1970-01-01 (Hinnant's `civil_from_days`).
    package static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    package static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
