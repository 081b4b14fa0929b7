import Foundation
import SimulatedFirebase

/// When a user's pre-notification and email alert are due for one missed-check-in window.
///
/// "72 h" is elapsed time: `lastHeartbeat + 72 × 3600 s`, whatever the clocks on the wall do. The
/// `wall-clock-threshold` variant instead adds calendar days in the user's time zone, which is
/// an hour off when a DST change falls inside the window.
public struct SafeNSoundDeadlines: Sendable, Equatable {
    /// When the "tap now or we'll email your contact" push is due (threshold − lead).
    public var preNotificationDue: Timestamp
    /// When the email to the emergency contacts is due (the threshold).
    public var emailDue: Timestamp

    /// Deadlines with both instants given.
    public init(preNotificationDue: Timestamp, emailDue: Timestamp) {
        precondition(preNotificationDue <= emailDue, "pre-notification must not be due after the email")
        self.preNotificationDue = preNotificationDue
        self.emailDue = emailDue
    }

    /// The deadlines of `user`'s current window.
    public static func of(
        _ user: SafeNSoundUser, preNotificationLeadHours: Int, wallClock: Bool = false
    ) -> SafeNSoundDeadlines {
        let thresholdHours = user.checkInThresholdHours
        precondition(thresholdHours > 0, "threshold must be positive")
        let leadHours = min(preNotificationLeadHours, thresholdHours)
        let emailDue: Timestamp
        if wallClock {
            emailDue = wallClockAdding(hours: thresholdHours, to: user.lastHeartbeat, timeZoneIdentifier: user.timeZoneIdentifier)
        } else {
            emailDue = user.lastHeartbeat + .seconds(Int64(thresholdHours) * 3600)
        }
        let preDue = emailDue - .seconds(Int64(leadHours) * 3600)
        return SafeNSoundDeadlines(preNotificationDue: preDue, emailDue: emailDue)
    }

    /// "Same wall-clock time N days later" (plus remaining hours), as a naive implementation computes it.
    static func wallClockAdding(hours: Int, to start: Timestamp, timeZoneIdentifier: String) -> Timestamp {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZoneIdentifier) ?? TimeZone(identifier: "UTC")!
        let startDate = Date(timeIntervalSince1970: TimeInterval(start.unixSeconds))
        var components = DateComponents()
        components.day = hours / 24
        components.hour = hours % 24
        guard let end = calendar.date(byAdding: components, to: startDate) else {
            return start + .seconds(Int64(hours) * 3600)
        }
        let subsecond = start.unixNanoseconds - start.unixSeconds * 1_000_000_000
        return Timestamp(unixNanoseconds: Int64(end.timeIntervalSince1970.rounded()) * 1_000_000_000 + subsecond)
    }
}
