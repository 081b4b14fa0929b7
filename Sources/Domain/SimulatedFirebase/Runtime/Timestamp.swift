/// A calendar instant with nanosecond resolution (nanoseconds since 1970-01-01T00:00:00Z, UTC).
///
/// Firestore `Timestamp` fields, scheduled times and outbox times are all of this type, so
/// domain code never touches `Date()`.
public struct Timestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Nanoseconds since the Unix epoch.
    public var unixNanoseconds: Int64

    /// The instant `unixNanoseconds` after 1970-01-01T00:00Z.
    public init(unixNanoseconds: Int64) { self.unixNanoseconds = unixNanoseconds }

    /// A timestamp from whole seconds since the Unix epoch.
    public init(unixSeconds: Int64) { self.unixNanoseconds = unixSeconds * 1_000_000_000 }

    /// Whole seconds since the Unix epoch (rounded toward negative infinity).
    public var unixSeconds: Int64 {
        unixNanoseconds >= 0 ? unixNanoseconds / 1_000_000_000 : (unixNanoseconds - 999_999_999) / 1_000_000_000
    }

    /// Earlier instants order first.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.unixNanoseconds < rhs.unixNanoseconds }

    /// The instant `rhs` after `lhs`.
    public static func + (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(unixNanoseconds: lhs.unixNanoseconds + rhs.nanoseconds)
    }

    /// The instant `rhs` before `lhs`.
    public static func - (lhs: Timestamp, rhs: Duration) -> Timestamp {
        Timestamp(unixNanoseconds: lhs.unixNanoseconds - rhs.nanoseconds)
    }

    /// The duration from `other` to `self` (negative if `other` is later).
    public static func - (lhs: Timestamp, rhs: Timestamp) -> Duration {
        .nanoseconds(lhs.unixNanoseconds - rhs.unixNanoseconds)
    }

    /// `t=<ns>ns`, for logs and notes.
    public var description: String { "t=\(unixNanoseconds)ns" }
}
