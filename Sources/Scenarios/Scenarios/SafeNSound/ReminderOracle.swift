import Domain
import FirebaseHarness
import Harness
import SimulatedFirebase

/// Local wall time in daily-reminder's zones, for its checks, from a table of known answers:
/// each zone's UTC offset at the start of 2026 and the UTC instants of its 2026 DST changes, as
/// the tz database publishes them (written here, not computed by Foundation or by a rule), and the
/// reading of a skipped or repeated wall-clock time docs/domain.md states. Valid for 2026 only.
enum ReminderOracle {
    /// One DST change: from `unixSeconds` on, the zone is `offsetAfter` seconds east of UTC.
    struct Change {
        let unixSeconds: Int64
        let offsetAfter: Int64
    }

    /// A zone's offset on 2026-01-01 and its 2026 changes, in order.
    struct Zone {
        let initialOffset: Int64
        let changes: [Change]
    }

    static let hour: Int64 = 3600

    /// The table. 2026: US DST from Sunday 8 March 02:00 PST (10:00 UTC) to Sunday 1 November
    /// 02:00 PDT (09:00 UTC); UK BST from Sunday 29 March 01:00 UTC to Sunday 25 October 01:00 UTC;
    /// New South Wales AEDT until Sunday 5 April 03:00 AEDT (4 April 16:00 UTC) and again from
    /// Sunday 4 October 02:00 AEST (3 October 16:00 UTC); Japan has no DST.
    static let zones: [String: Zone] = [
        "America/Los_Angeles": Zone(initialOffset: -8 * hour, changes: [
            Change(unixSeconds: 1_772_964_000, offsetAfter: -7 * hour),  // 2026-03-08T10:00Z
            Change(unixSeconds: 1_793_523_600, offsetAfter: -8 * hour),  // 2026-11-01T09:00Z
        ]),
        "Europe/London": Zone(initialOffset: 0, changes: [
            Change(unixSeconds: 1_774_746_000, offsetAfter: 1 * hour),  // 2026-03-29T01:00Z
            Change(unixSeconds: 1_792_890_000, offsetAfter: 0),  // 2026-10-25T01:00Z
        ]),
        "Australia/Sydney": Zone(initialOffset: 11 * hour, changes: [
            Change(unixSeconds: 1_775_318_400, offsetAfter: 10 * hour),  // 2026-04-04T16:00Z
            Change(unixSeconds: 1_791_043_200, offsetAfter: 11 * hour),  // 2026-10-03T16:00Z
        ]),
        "Asia/Tokyo": Zone(initialOffset: 9 * hour, changes: []),
    ]

    /// 2026-01-01T00:00Z and 2027-01-01T00:00Z: the table's range.
    static let validFrom: Int64 = 1_767_225_600
    static let validUntil: Int64 = 1_798_761_600

    /// Seconds east of UTC in `zone` at `unixSeconds`.
    static func offset(_ zone: String, at unixSeconds: Int64) -> Int64 {
        guard let table = zones[zone] else { preconditionFailure("daily-reminder uses only the table's zones, not \(zone)") }
        precondition(unixSeconds >= validFrom - 2 * 86_400 && unixSeconds < validUntil + 2 * 86_400, "the table covers 2026")
        return table.changes.last { $0.unixSeconds <= unixSeconds }?.offsetAfter ?? table.initialOffset
    }

    /// Days since 1970-01-01 of the local date of `unixSeconds` in `zone`.
    static func localDay(_ unixSeconds: Int64, _ zone: String) -> Int64 {
        LocalTimeOracle.floorDiv(unixSeconds + offset(zone, at: unixSeconds), 86_400)
    }

    /// How a wall-clock time fared on its day.
    enum Kind { case normal, skipped, repeated }

    /// The instant of `minuteOfDay` on local day `day` in `zone`: the one instant whose local time it
    /// is; for a time the spring-forward skips, the instant it names read with the offset before
    /// the change (02:30 → 03:30 daylight); for a time the fall-back repeats, the first.
    static func fire(day: Int64, minuteOfDay: Int, _ zone: String) -> (unixSeconds: Int64, kind: Kind) {
        let wall = day * 86_400 + Int64(minuteOfDay) * 60
        let table = zones[zone]!
        var offsets = [table.initialOffset]
        for change in table.changes where !offsets.contains(change.offsetAfter) { offsets.append(change.offsetAfter) }
        let matching = offsets.map { wall - $0 }.filter { wall - offset(zone, at: $0) == $0 }.sorted()
        if let first = matching.first { return (first, matching.count > 1 ? .repeated : .normal) }
        // Skipped: the change whose gap holds the wall time; read with the offset before it.
        var before = table.initialOffset
        for change in table.changes {
            if change.offsetAfter > before, wall >= change.unixSeconds + before, wall < change.unixSeconds + change.offsetAfter {
                return (wall - before, .skipped)
            }
            before = change.offsetAfter
        }
        preconditionFailure("no instant and no gap for \(wall) in \(zone)")
    }

    /// Local midnight of `day` in `zone` (no change in the table's zones falls at midnight).
    static func midnight(day: Int64, _ zone: String) -> Int64 { fire(day: day, minuteOfDay: 0, zone).unixSeconds }

    /// "2026-03-08 03:30 UTC-7 (10:30Z)": `unixNanoseconds` as the user's wall clock shows it, and in UTC.
    static func describe(_ unixNanoseconds: Int64, _ zone: String) -> String {
        let seconds = LocalTimeOracle.floorDiv(unixNanoseconds, 1_000_000_000)
        let offset = offset(zone, at: seconds)
        func clock(_ t: Int64) -> String {
            let second = t - LocalTimeOracle.floorDiv(t, 86_400) * 86_400
            let h = second / 3600, m = second % 3600 / 60, s = second % 60
            return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)" + (s == 0 ? "" : ":\(s < 10 ? "0" : "")\(s)")
        }
        let hours = offset / 3600
        return "\(dayText(localDay(seconds, zone))) \(clock(seconds + offset)) UTC\(hours >= 0 ? "+" : "")\(hours) (\(clock(seconds))Z)"
    }

    /// "2026-03-08" for local day `day`.
    static func dayText(_ day: Int64) -> String {
        let (y, m, d) = LocalTimeOracle.civil(fromDays: day)
        return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }
}
