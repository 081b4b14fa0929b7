import Foundation
import Synchronization

/// Formats a last check-in for the emergency email, e.g. "Jan 12, 2026 at 10:00 PM PST".
///
/// Uses the user's IANA time zone (so DST shows as PST/PDT correctly) and a fixed POSIX locale,
/// so output never depends on the machine. The `utc-email` variant formats in UTC instead.
///
/// Formatters are cached per pattern and time zone: creating an ICU date formatter costs tens of
/// microseconds, which made formatting most of the cost of a 100,000-user timeline. The cache is
/// shared by all threads (formatting is done under its lock); it changes no output.
public enum SafeNSoundLastCheckInFormatter {
    /// `instant` in `timeZoneIdentifier` (UTC if the identifier is unknown).
    public static func format(_ instant: Timestamp, timeZoneIdentifier: String) -> String {
        string(instant, pattern: localPattern, timeZoneIdentifier: timeZoneIdentifier)
    }

    /// `instant` as a function running in UTC would print it ("Jan 13, 2026 at 6:00 AM UTC").
    public static func formatInUTC(_ instant: Timestamp) -> String {
        string(instant, pattern: utcPattern, timeZoneIdentifier: "UTC")
    }

    /// Whether `identifier` names a time zone Foundation knows.
    public static func isKnownTimeZone(_ identifier: String) -> Bool {
        TimeZone(identifier: identifier) != nil
    }

    static let localPattern = "MMM d, yyyy 'at' h:mm a zzz"
    static let utcPattern = "MMM d, yyyy 'at' h:mm a 'UTC'"
    /// Bound on cached formatters (IANA has about 600 zones; unknown identifiers are not cached).
    static let cachedFormattersLimit = 1_024

    private struct Key: Hashable {
        var pattern: String
        var timeZoneIdentifier: String
    }

    private static let formatters = Mutex<[Key: DateFormatter]>([:])

    private static func string(_ instant: Timestamp, pattern: String, timeZoneIdentifier: String) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(instant.unixSeconds))
        let key = Key(pattern: pattern, timeZoneIdentifier: timeZoneIdentifier)
        return formatters.withLock { cache in
            if let formatter = cache[key] { return formatter.string(from: date) }
            let zone = TimeZone(identifier: timeZoneIdentifier)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone ?? TimeZone(identifier: "UTC")!
            formatter.dateFormat = pattern
            if zone != nil && cache.count < cachedFormattersLimit { cache[key] = formatter }
            return formatter.string(from: date)
        }
    }
}
