/// Civil time in the reference model's six zones, from the published rules and no Foundation:
/// offsets, DST rules (US since 2007, EU since 1996, New South Wales since 2008) and the names the
/// POSIX locale prints for `zzz` (US zones their abbreviations, the others GMT offsets, UTC "GMT").
enum TimelineReferenceZones {
    enum Rule { case unitedStates, europeanUnion, newSouthWales }

    struct Zone {
        let standardHours: Int64
        let standardName: String
        let daylightName: String
        let rule: Rule?
    }

    static let zones: [String: Zone] = [
        "America/Los_Angeles": Zone(standardHours: -8, standardName: "PST", daylightName: "PDT", rule: .unitedStates),
        "America/New_York": Zone(standardHours: -5, standardName: "EST", daylightName: "EDT", rule: .unitedStates),
        "Europe/London": Zone(standardHours: 0, standardName: "GMT", daylightName: "GMT+1", rule: .europeanUnion),
        "Asia/Tokyo": Zone(standardHours: 9, standardName: "GMT+9", daylightName: "GMT+9", rule: nil),
        "Australia/Sydney": Zone(standardHours: 10, standardName: "GMT+10", daylightName: "GMT+11", rule: .newSouthWales),
        "UTC": Zone(standardHours: 0, standardName: "GMT", daylightName: "GMT", rule: nil),
    ]
    static let names = zones.keys.sorted()
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// Local fields of `seconds` (Unix) in `zone`.
    struct Local {
        let year: Int, month: Int, day: Int, hour: Int, minute: Int, weekday: Int
        let name: String
    }

    static func local(_ seconds: Int64, _ zoneName: String) -> Local {
        let zone = zones[zoneName]!
        let daylight = isDaylight(seconds, zone)
        let shifted = seconds + (zone.standardHours + (daylight ? 1 : 0)) * 3600
        let days = floorDiv(shifted, 86_400)
        let (y, m, d) = civil(days)
        let second = Int(shifted - days * 86_400)
        return Local(year: y, month: m, day: d, hour: second / 3600, minute: second % 3600 / 60,
                     weekday: Int(((days % 7) + 11) % 7), name: daylight ? zone.daylightName : zone.standardName)
    }

    /// `Jan 12, 2026 at 10:00 PM PST` (the email's "Last check-in").
    static func email(_ seconds: Int64, _ zone: String) -> String {
        let l = local(seconds, zone)
        return "\(months[l.month - 1]) \(l.day), \(l.year) at \(clock(l)) \(l.name)"
    }

    /// `Mon Jan 12, 10:00 PM PST` (the table's local column).
    static func table(_ seconds: Int64, _ zone: String) -> String {
        let l = local(seconds, zone)
        return "\(weekdays[l.weekday]) \(months[l.month - 1]) \(l.day), \(clock(l)) \(l.name)"
    }

    /// `2026-01-13 06:00`.
    static func utc(_ seconds: Int64) -> String {
        let l = local(seconds, "UTC")
        return "\(l.year)-\(pad(l.month))-\(pad(l.day)) \(pad(l.hour)):\(pad(l.minute))"
    }

    static func clock(_ l: Local) -> String {
        "\(l.hour % 12 == 0 ? 12 : l.hour % 12):\(pad(l.minute)) \(l.hour < 12 ? "AM" : "PM")"
    }

    static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    static func isDaylight(_ t: Int64, _ zone: Zone) -> Bool {
        guard let rule = zone.rule else { return false }
        let std = zone.standardHours * 3600
        let year = civil(floorDiv(t + std, 86_400)).0
        switch rule {
        case .unitedStates:
            let start = at(year, 3, sunday(year, 3, 2), 2) - std
            let end = at(year, 11, sunday(year, 11, 1), 2) - (std + 3600)
            return t >= start && t < end
        case .europeanUnion:
            return t >= at(year, 3, lastSunday(year, 3), 1) && t < at(year, 10, lastSunday(year, 10), 1)
        case .newSouthWales:
            let end = at(year, 4, sunday(year, 4, 1), 3) - (std + 3600)
            let start = at(year, 10, sunday(year, 10, 1), 2) - std
            return t < end || t >= start
        }
    }

    static func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int) -> Int64 { days(y, m, d) * 86_400 + Int64(h) * 3600 }
    static func sunday(_ y: Int, _ m: Int, _ n: Int) -> Int {
        let first = Int(((days(y, m, 1) % 7) + 11) % 7)
        return 1 + (7 - first) % 7 + 7 * (n - 1)
    }
    static func lastSunday(_ y: Int, _ m: Int) -> Int { 31 - Int(((days(y, m, 31) % 7) + 11) % 7) }

    /// Days since 1970-01-01, counted year by year and month by month (slow and obvious).
    static func days(_ y: Int, _ m: Int, _ d: Int) -> Int64 {
        var total: Int64 = 0
        for year in 1970..<y { total += leap(year) ? 366 : 365 }
        let lengths = [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for month in 1..<m { total += Int64(lengths[month - 1]) }
        return total + Int64(d - 1)
    }

    static func civil(_ days: Int64) -> (Int, Int, Int) {
        var rest = days, year = 1970
        while rest >= (leap(year) ? 366 : 365) { rest -= leap(year) ? 366 : 365; year += 1 }
        let lengths = [31, leap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var month = 1
        while rest >= Int64(lengths[month - 1]) { rest -= Int64(lengths[month - 1]); month += 1 }
        return (year, month, Int(rest) + 1)
    }

    static func leap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
