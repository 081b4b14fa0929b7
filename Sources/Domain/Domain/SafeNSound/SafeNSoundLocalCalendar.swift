import Foundation
import SimulatedFirebase
import Synchronization

/// Local dates and wall-clock times in an IANA time zone, for the daily reminder, from the zone
/// data Foundation ships (the same data `SafeNSoundLastCheckInFormatter` formats with).
///
/// A wall-clock time that a DST change skips or repeats (docs/domain.md, "SafeNSound daily
/// reminder"): a skipped time (02:30 on the US spring-forward day) is read with the offset in force
/// before the change, so it falls as far after the jump as it was after the skipped hour's start
/// (02:30 → 03:30 PDT); a repeated time (01:30 on a fall-back day) is its first occurrence
/// (01:30 PDT, not 01:30 PST). Offsets are looked up once per zone and UTC minute (every IANA
/// offset since 1980 changes on a whole minute) and kept, so a run asks Foundation only a few times.
public enum SafeNSoundLocalCalendar {
    /// Seconds east of UTC in `timeZoneIdentifier` at `instant` (UTC's 0 for an unknown zone).
    public static func offsetSeconds(_ timeZoneIdentifier: String, at instant: Timestamp) -> Int64 {
        offsetSeconds(timeZoneIdentifier, atUnixSeconds: floorDiv(instant.unixNanoseconds, 1_000_000_000))
    }

    /// The local date of `instant` in `timeZoneIdentifier`.
    public static func localDate(of instant: Timestamp, in timeZoneIdentifier: String) -> SafeNSoundLocalDate {
        let seconds = floorDiv(instant.unixNanoseconds, 1_000_000_000)
        let local = seconds + offsetSeconds(timeZoneIdentifier, atUnixSeconds: seconds)
        return SafeNSoundLocalDate(daysSinceEpoch: floorDiv(local, 86_400))
    }

    /// The instant the wall clock of `timeZoneIdentifier` shows `time` on `date`: a skipped time
    /// read with the offset before the change, a repeated one at its first occurrence.
    public static func instant(of time: SafeNSoundReminderTime, on date: SafeNSoundLocalDate, in timeZoneIdentifier: String) -> Timestamp {
        let wall = date.daysSinceEpoch * 86_400 + Int64(time.minuteOfDay) * 60
        // The offsets a day either side: at most one change lies between them for any real zone.
        let before = offsetSeconds(timeZoneIdentifier, atUnixSeconds: wall - 86_400)
        let after = offsetSeconds(timeZoneIdentifier, atUnixSeconds: wall + 86_400)
        let matching = (before == after ? [before] : [before, after]).map { wall - $0 }.filter { offsetSeconds(timeZoneIdentifier, atUnixSeconds: $0) == wall - $0 }
        let seconds = matching.min() ?? wall - before
        return Timestamp(unixNanoseconds: seconds * 1_000_000_000)
    }

    /// Local midnight of `date` (the instant the date begins; a skipped midnight is read as `instant(of:on:in:)` reads it).
    public static func startOfDay(_ date: SafeNSoundLocalDate, in timeZoneIdentifier: String) -> Timestamp {
        instant(of: SafeNSoundReminderTime(hour: 0, minute: 0)!, on: date, in: timeZoneIdentifier)
    }

    /// Minutes after local midnight that the wall clock of `timeZoneIdentifier` shows at `instant`.
    public static func minuteOfDay(at instant: Timestamp, in timeZoneIdentifier: String) -> Int {
        let seconds = floorDiv(instant.unixNanoseconds, 1_000_000_000)
        let local = seconds + offsetSeconds(timeZoneIdentifier, atUnixSeconds: seconds)
        return Int((local - floorDiv(local, 86_400) * 86_400) / 60)
    }

    private struct Key: Hashable {
        var zone: String
        var minute: Int64
    }

    private struct Cache {
        var zones: [String: TimeZone] = [:]
        var offsets: [Key: Int64] = [:]
    }

    /// Bound on remembered offsets; the table starts over when full.
    static let cachedOffsetsLimit = 65_536
    private static let cache = Mutex(Cache())

    static func offsetSeconds(_ timeZoneIdentifier: String, atUnixSeconds seconds: Int64) -> Int64 {
        let key = Key(zone: timeZoneIdentifier, minute: floorDiv(seconds, 60))
        return cache.withLock { cache in
            if let offset = cache.offsets[key] { return offset }
            let zone: TimeZone
            if let known = cache.zones[timeZoneIdentifier] {
                zone = known
            } else if let found = TimeZone(identifier: timeZoneIdentifier) {
                zone = found
                cache.zones[timeZoneIdentifier] = found
            } else {
                return 0
            }
            let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(key.minute * 60))))
            if cache.offsets.count >= cachedOffsetsLimit { cache.offsets.removeAll(keepingCapacity: true) }
            cache.offsets[key] = offset
            return offset
        }
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
