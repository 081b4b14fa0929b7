import SimulatedFirebase

/// `dailyReminderTime` of `users/{uid}`: the local wall-clock time ("{ hour, minute }") at which
/// the user wants the daily check-in reminder, read in the user's `timezone` (docs/domain.md,
/// "SafeNSound daily reminder").
public struct SafeNSoundReminderTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 0...23.
    public let hour: Int
    /// 0...59.
    public let minute: Int

    /// A reminder time; nil unless `hour` is 0...23 and `minute` 0...59.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Minutes after local midnight (0...1439).
    public var minuteOfDay: Int { hour * 60 + minute }

    /// "09:05".
    public var description: String { "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)" }

    /// Earlier in the day first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minuteOfDay < rhs.minuteOfDay }
}
