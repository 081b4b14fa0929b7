import Foundation
import SimulatedFirebase
import Synchronization

/// Formats a last check-in for the emergency email, e.g. "Jan 12, 2026 at 10:00 PM PST".
///
/// Uses the user's IANA time zone (so DST shows as PST/PDT correctly) and a fixed POSIX locale,
/// so output never depends on the machine. The `utc-email` variant formats in UTC instead.
///
/// Formatters are cached per pattern and time zone: creating an ICU date formatter costs tens of
/// microseconds, which made formatting most of the cost of a 100,000-user timeline; and the text
/// of each minute is kept (a 100,000-user timeline formats ~150,000 emails in ~35,000 distinct
/// minutes). The cache is shared by all threads (formatting is done under its lock); it changes no output.
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

    /// One formatted minute: the patterns print no seconds, so every instant of one minute of
    /// one zone prints the same text.
    private struct MinuteKey: Hashable {
        var formatter: Key
        var minute: Int64
    }

    private struct Cache {
        var formatters: [Key: DateFormatter] = [:]
        var minutes: [MinuteKey: String] = [:]
    }

    /// Bound on remembered minutes (6 zones × 4 days is about 35,000); the table starts over when full.
    static let cachedMinutesLimit = 65_536
    /// Instants from 1980 on are formatted once per minute and zone. From then on every IANA
    /// zone's offsets are whole minutes and change on whole minutes (Liberia's −0:44:30 ended
    /// in 1972), so all instants of one UTC minute fall in one local minute and one zone name;
    /// earlier instants are formatted each time.
    static let minuteCacheFromUnixSeconds: Int64 = 315_532_800

    private static let cache = Mutex(Cache())

    private static func string(_ instant: Timestamp, pattern: String, timeZoneIdentifier: String) -> String {
        let seconds = instant.unixSeconds
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let key = Key(pattern: pattern, timeZoneIdentifier: timeZoneIdentifier)
        let minuteKey = seconds >= minuteCacheFromUnixSeconds ? MinuteKey(formatter: key, minute: seconds / 60) : nil
        return cache.withLock { cache in
            if let minuteKey, let text = cache.minutes[minuteKey] { return text }
            let text: String
            if let formatter = cache.formatters[key] {
                text = formatter.string(from: date)
            } else {
                let zone = TimeZone(identifier: timeZoneIdentifier)
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = zone ?? TimeZone(identifier: "UTC")!
                formatter.dateFormat = pattern
                text = formatter.string(from: date)
                guard zone != nil else { return text }  // unknown zones are neither kept nor remembered
                if cache.formatters.count < cachedFormattersLimit { cache.formatters[key] = formatter }
            }
            if let minuteKey {
                if cache.minutes.count >= cachedMinutesLimit { cache.minutes.removeAll(keepingCapacity: true) }
                cache.minutes[minuteKey] = text
            }
            return text
        }
    }
}
