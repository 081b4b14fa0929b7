import Foundation

/// Formats a last check-in for the emergency email, e.g. "Jan 12, 2026 at 10:00 PM PST".
///
/// Uses the user's IANA time zone (so DST shows as PST/PDT correctly) and a fixed POSIX locale,
/// so output never depends on the machine. The `utc-email` variant formats in UTC instead.
public enum SafeNSoundLastCheckInFormatter {
    /// `instant` in `timeZoneIdentifier` (UTC if the identifier is unknown).
    public static func format(_ instant: Timestamp, timeZoneIdentifier: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: timeZoneIdentifier) ?? TimeZone(identifier: "UTC")!
        formatter.dateFormat = "MMM d, yyyy 'at' h:mm a zzz"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(instant.unixSeconds)))
    }

    /// `instant` as a function running in UTC would print it ("Jan 13, 2026 at 6:00 AM UTC").
    public static func formatInUTC(_ instant: Timestamp) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")!
        formatter.dateFormat = "MMM d, yyyy 'at' h:mm a 'UTC'"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(instant.unixSeconds)))
    }

    /// Whether `identifier` names a time zone Foundation knows.
    public static func isKnownTimeZone(_ identifier: String) -> Bool {
        TimeZone(identifier: identifier) != nil
    }
}
